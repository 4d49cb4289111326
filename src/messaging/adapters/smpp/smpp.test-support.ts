import type { CarrierReceipt, OutboundMessage, ReceiptSink } from '../../ports/carrier.port';
import type { CarrierLogger } from './smpp-carrier.adapter';
import { encodeBody, splitIntoParts } from '../../domain/segments';

/** Polls until the condition holds; generous by default for slow, busy machines. */
export async function waitFor(
  condition: () => boolean,
  description: string,
  timeoutMs = 20_000,
  intervalMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A sink that records receipts and can be told to fail. */
export class RecordingSink implements ReceiptSink {
  readonly receipts: CarrierReceipt[] = [];
  failNext = 0;

  async receipt(receipt: CarrierReceipt): Promise<void> {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('sink unavailable');
    }
    this.receipts.push(receipt);
  }

  /** Receipts whose candidates include the id. */
  for(carrierMessageId: string): CarrierReceipt[] {
    return this.receipts.filter((r) => r.carrierMessageIdCandidates.includes(carrierMessageId));
  }
}

export class CapturingLogger implements CarrierLogger {
  readonly lines: string[] = [];
  log(message: string): void {
    this.lines.push(`log ${message}`);
  }
  warn(message: string): void {
    this.lines.push(`warn ${message}`);
  }
  error(message: string): void {
    this.lines.push(`error ${message}`);
  }
  debug(message: string): void {
    this.lines.push(`debug ${message}`);
  }
}

let counter = 0;

/** An outbound message with encoding and segments computed like the domain does. */
export function outbound(
  to: string,
  body: string,
  overrides: Partial<OutboundMessage> = {},
): OutboundMessage {
  const encoding = overrides.encoding ?? encodeBody(body).encoding;
  return {
    messageId: `msg_test${++counter}`,
    to,
    senderId: 'MyShop',
    body,
    encoding,
    segments: overrides.segments ?? splitIntoParts(body, encoding).length,
    environment: 'LIVE',
    validUntil: new Date(Date.now() + 48 * 3600_000).toISOString(),
    ...overrides,
  };
}
