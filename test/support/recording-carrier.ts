import type {
  Carrier,
  CarrierRoutes,
  FinalStatus,
  OutboundMessage,
  ReceiptSink,
  SubmitResult,
} from '../../src/messaging/ports/carrier.port';

/**
 * A fake carrier for tests: accepts every message, records exactly what the service handed it,
 * and reports receipts when told to, through the ReceiptSink it was started with (the same
 * inbound path the SMPP adapter and the TEST simulator use).
 */
export class RecordingCarrier implements Carrier {
  readonly received: OutboundMessage[] = [];
  private sink: ReceiptSink | null = null;

  constructor(readonly name: string) {}

  async start(sink: ReceiptSink): Promise<void> {
    this.sink = sink;
  }

  async stop(): Promise<void> {
    this.sink = null;
  }

  async submit(message: OutboundMessage): Promise<SubmitResult> {
    this.received.push(message);
    return { outcome: 'accepted', carrierMessageIds: this.partIds(message) };
  }

  /** Reports one receipt per part of a message it received, as a carrier would. */
  async report(messageId: string, status: FinalStatus = 'DELIVERED'): Promise<void> {
    const message = this.received.find((m) => m.messageId === messageId);
    if (!message || !this.sink) throw new Error(`${this.name} has no message ${messageId} or is not started`);
    for (const id of this.partIds(message)) {
      await this.sink.receipt({
        carrier: this.name,
        environment: message.environment,
        carrierMessageIdCandidates: [id],
        status,
        carrierStatus: status === 'DELIVERED' ? 'DELIVRD' : 'UNDELIV',
        errorCode: status === 'DELIVERED' ? null : 'undeliverable',
        errorMessage: null,
        reportedAt: new Date(),
      });
    }
  }

  private partIds(message: OutboundMessage): string[] {
    return Array.from({ length: message.segments }, (_, i) => `${message.messageId}-part${i + 1}`);
  }
}

/** CARRIER_ROUTES sending this carrier's traffic, TEST and LIVE, to it (and nothing else anywhere). */
export function routesTo(carrier: Carrier): CarrierRoutes {
  return {
    carrierFor: (carrierName) => (carrierName === carrier.name ? carrier : null),
    all: () => [carrier],
  };
}
