import { Logger } from '@nestjs/common';
import type { PDU, PduOptions } from 'smpp';
import type { Carrier, OutboundMessage, ReceiptSink, SubmitResult } from '../../ports/carrier.port';
import { canonicalCarrierMessageId } from './carrier-message-id';
import { DeliverSmHandler } from './deliver-sm.handler';
import { SubmitWindow, TokenBucket } from './flow-control';
import { ConnectionClosedError, pduString, ResponseTimeoutError } from './smpp-connection';
import { CarrierLogger, errorText, SmppLink } from './smpp-link';
import { SmppStatus, smppStatusName } from './smpp-status';
import type { SmppConnectionConfig } from './smpp-url';
import { buildSubmitSms } from './submit-sm.builder';
import { plural } from '../../../shared/wording';

export type { CarrierLogger } from './smpp-link';

export interface SmppCarrierOptions {
  /** Default: Nest's Logger named carrier:<name>. */
  logger?: CarrierLogger;
  /** First reconnect delay; doubles per failed attempt up to reconnectMaxDelayMs. Default 1000. */
  reconnectBaseDelayMs?: number;
  /** Default 60000. */
  reconnectMaxDelayMs?: number;
  /** enquire_link keep-alive period. Default 30000. */
  enquireLinkIntervalMs?: number;
  /** How long bind, enquire_link, submit_sm and unbind wait for their response. Default 10000. */
  responseTimeoutMs?: number;
  /** TCP connect timeout. Default 10000. */
  connectTimeoutMs?: number;
  /** Longest a submit waits for a window slot or a throughput token before answering retry. Default 5000. */
  maxQueueWaitMs?: number;
  /** Throttled parts are retried in place this many times before submit answers retry. Default 1. */
  throttleRetries?: number;
  /** Delay before retrying after ESME_RTHROTTLED (in place, and the retry afterMs). Default 1000. */
  throttledRetryMs?: number;
  /** retry afterMs after ESME_RMSGQFUL. Default 5000. */
  queueFullRetryMs?: number;
  /** retry afterMs while not bound, or when a connection drops mid-submit. Default 2000. */
  disconnectedRetryMs?: number;
  /** How long the sink may take to record a receipt before it is answered ESME_RX_T_APPN. Default 30000. */
  receiptTimeoutMs?: number;
  /** On stop, how long to wait for in-flight submits before unbinding. Default 5000. */
  drainTimeoutMs?: number;
  /** Token bucket burst (PDUs that may go back to back). Default 1: evenly paced at tps. */
  burst?: number;
}

type RetryResult = Extract<SubmitResult, { outcome: 'retry' }>;
type PartOutcome =
  | Exclude<SubmitResult, { outcome: 'accepted' }>
  | { readonly outcome: 'part-accepted'; readonly carrierMessageId: string }
  | { readonly outcome: 'throttled'; readonly afterMs: number; readonly reason: string };

/**
 * A live carrier over SMPP v3.4: one bind_transceiver session (SmppLink: keep-alive and
 * reconnects), submits within the URL's window and tps, receipts through DeliverSmHandler.
 *
 * Delivery is at least once: a submit whose response never arrives (connection dropped,
 * timeout) answers retry, never accepted, so a message may reach the handset twice but is never
 * silently lost. The same holds for multi-part messages: if part 1 was accepted and a later part
 * must be retried, the whole message is retried. If a later part is refused for good, the
 * result is rejected even though earlier parts went out (its errorMessage says how many).
 * Carrier ids are reported in canonical form (see carrier-message-id.ts).
 */
export class SmppCarrier implements Carrier {
  private readonly settings: Required<Omit<SmppCarrierOptions, 'logger'>>;
  private readonly logger: CarrierLogger;
  private readonly link: SmppLink;
  private readonly window: SubmitWindow;
  private readonly bucket: TokenBucket;
  private readonly where: string;
  private sink: ReceiptSink | null = null;
  private reference = Math.floor(Math.random() * 256);

  constructor(
    readonly name: string,
    private readonly config: SmppConnectionConfig,
    options: SmppCarrierOptions = {},
  ) {
    const logger = options.logger ?? new Logger(`carrier:${name}`);
    const settings = {
      reconnectBaseDelayMs: options.reconnectBaseDelayMs ?? 1000,
      reconnectMaxDelayMs: options.reconnectMaxDelayMs ?? 60_000,
      enquireLinkIntervalMs: options.enquireLinkIntervalMs ?? 30_000,
      responseTimeoutMs: options.responseTimeoutMs ?? 10_000,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      maxQueueWaitMs: options.maxQueueWaitMs ?? 5000,
      throttleRetries: options.throttleRetries ?? 1,
      throttledRetryMs: options.throttledRetryMs ?? 1000,
      queueFullRetryMs: options.queueFullRetryMs ?? 5000,
      disconnectedRetryMs: options.disconnectedRetryMs ?? 2000,
      receiptTimeoutMs: options.receiptTimeoutMs ?? 30_000,
      drainTimeoutMs: options.drainTimeoutMs ?? 5000,
      burst: options.burst ?? 1,
    };
    this.settings = settings;
    this.logger = logger;
    this.where = `${name} (${config.systemId}@${config.host}:${config.port})`;
    this.window = new SubmitWindow(config.window);
    this.bucket = new TokenBucket(config.tps, settings.burst);
    const receipts = new DeliverSmHandler(name, () => this.sink, logger, settings.receiptTimeoutMs);
    this.link = new SmppLink(config, settings, logger, this.where, (connection) => {
      const onDeliver = (pdu: PDU): void => void receipts.handle(connection, pdu);
      connection.on('deliver_sm', onDeliver);
      connection.on('data_sm', onDeliver);
    });
  }

  /** True while a bind_transceiver session is up. */
  isBound(): boolean {
    return this.link.connection !== null;
  }

  /** Connects and binds; resolves after the first attempt, successful or not (failures are retried in the background). */
  async start(sink: ReceiptSink): Promise<void> {
    this.sink = sink;
    await this.link.start();
  }

  /** Waits (up to drainTimeoutMs) for submits in flight, then unbinds and closes; cancels reconnects. */
  async stop(): Promise<void> {
    await this.link.stop(async (connection) => {
      const until = Date.now() + this.settings.drainTimeoutMs;
      while (this.window.used > 0 && connection.isOpen && Date.now() < until) await sleep(20);
    });
  }

  async submit(message: OutboundMessage): Promise<SubmitResult> {
    if (!this.link.isRunning) return this.retry(`carrier ${this.name} is not started`);
    const built = buildSubmitSms(message, this.nextReference());
    if (!built.ok)
      return { outcome: 'rejected', errorCode: built.errorCode, errorMessage: built.errorMessage };
    if (!this.isBound()) return this.retry(`not bound to ${this.where}`);

    // Parts go out in order, each once it has a window slot and a token; responses are awaited together.
    const pending: Array<Promise<PartOutcome>> = [];
    let failed = false;
    for (const fields of built.parts) {
      if (failed) break;
      const slot = await this.acquireSlot();
      if ('outcome' in slot) {
        pending.push(Promise.resolve(slot));
        break;
      }
      const part = this.sendPart(fields, slot.release).then((outcome) => {
        if (outcome.outcome !== 'part-accepted') failed = true;
        return outcome;
      });
      pending.push(part);
    }
    return combine(await Promise.all(pending), built.parts.length);
  }

  private async acquireSlot(): Promise<{ release: () => void } | RetryResult> {
    const { maxQueueWaitMs } = this.settings;
    const release = await this.window.acquire(maxQueueWaitMs);
    if (!release) return retry(maxQueueWaitMs, `submit window of ${this.config.window} is full`);
    const waitMs = this.bucket.reserve(maxQueueWaitMs);
    if (waitMs === null) {
      release();
      const afterMs = Math.max(this.bucket.waitEstimateMs(), 100);
      return retry(afterMs, `throughput limit of ${this.config.tps}/s reached`);
    }
    if (waitMs > 0) await sleep(waitMs);
    return { release };
  }

  /** Sends one part, retrying in place after ESME_RTHROTTLED up to throttleRetries times. */
  private async sendPart(fields: PduOptions, release: () => void): Promise<PartOutcome> {
    let outcome = await this.sendOnce(fields, release);
    for (let tries = 0; tries < this.settings.throttleRetries && outcome.outcome === 'throttled'; tries++) {
      await sleep(this.settings.throttledRetryMs);
      const slot = await this.acquireSlot();
      if ('outcome' in slot) return slot;
      outcome = await this.sendOnce(fields, slot.release);
    }
    return outcome;
  }

  private async sendOnce(fields: PduOptions, release: () => void): Promise<PartOutcome> {
    try {
      const connection = this.link.connection;
      if (!connection || !this.link.isRunning) return this.retry(`not bound to ${this.where}`);
      const response = await connection.request('submit_sm', fields, this.settings.responseTimeoutMs);
      return this.partOutcome(response);
    } catch (error) {
      if (error instanceof ConnectionClosedError)
        return this.retry('connection dropped before submit_sm_resp');
      if (error instanceof ResponseTimeoutError) return this.retry(error.message);
      this.logger.error(`submit_sm failed: ${errorText(error)}`);
      return this.retry(`submit_sm failed: ${errorText(error)}`);
    } finally {
      release();
    }
  }

  private partOutcome(response: PDU): PartOutcome {
    const status = response.command_status;
    if (status === SmppStatus.ESME_ROK) {
      const id = pduString(response, 'message_id') ?? '';
      if (id === '') this.logger.warn('submit_sm_resp without a message_id: its receipt cannot be matched');
      return { outcome: 'part-accepted', carrierMessageId: canonicalCarrierMessageId(id) };
    }
    const name = smppStatusName(status);
    if (status === SmppStatus.ESME_RTHROTTLED) {
      return { outcome: 'throttled', afterMs: this.settings.throttledRetryMs, reason: `${name}: throttled` };
    }
    if (status === SmppStatus.ESME_RMSGQFUL)
      return retry(this.settings.queueFullRetryMs, `${name}: queue full`);
    return { outcome: 'rejected', errorCode: name, errorMessage: `submit_sm refused with ${name}` };
  }

  private retry(reason: string): RetryResult {
    return retry(this.settings.disconnectedRetryMs, reason);
  }

  private nextReference(): number {
    this.reference = (this.reference + 1) % 256;
    return this.reference;
  }
}

/** One result for all parts: the first permanent refusal wins, then any retry, else accepted. */
function combine(outcomes: readonly PartOutcome[], total: number): SubmitResult {
  const ids: string[] = [];
  for (const [index, outcome] of outcomes.entries()) {
    if (outcome.outcome === 'part-accepted') {
      ids.push(outcome.carrierMessageId);
    } else if (outcome.outcome === 'rejected') {
      const detail =
        total > 1
          ? ` (part ${index + 1} of ${total}; ${plural(ids.length, 'earlier part')} ${ids.length === 1 ? 'was' : 'were'} accepted)`
          : '';
      return { ...outcome, errorMessage: `${outcome.errorMessage}${detail}` };
    }
  }
  const retries = outcomes.filter(
    (o): o is Extract<PartOutcome, { outcome: 'retry' | 'throttled' }> =>
      o.outcome === 'retry' || o.outcome === 'throttled',
  );
  if (retries.length > 0) {
    return retry(Math.max(...retries.map((r) => r.afterMs)), retries.map((r) => r.reason).join('; '));
  }
  if (ids.length !== total) return retry(1000, 'not every part was submitted');
  return { outcome: 'accepted', carrierMessageIds: ids };
}

function retry(afterMs: number, reason: string): RetryResult {
  return { outcome: 'retry', afterMs, reason };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
