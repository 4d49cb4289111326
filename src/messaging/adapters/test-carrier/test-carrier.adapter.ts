import { appendFileSync } from 'node:fs';
import { simulatedOutcome } from '../../domain/sandbox';
import type { Carrier, OutboundMessage, ReceiptSink, SubmitResult } from '../../ports/carrier.port';

export interface TestCarrierOptions {
  /** TEST_DLR_DELAY_MS: how long after submission the simulated receipt arrives. */
  readonly dlrDelayMs: number;
  readonly now?: () => Date;
  readonly log?: (message: string, error?: unknown) => void;
}

/** The simulator's carrier id for a message part: derived, never stored, so a restart finds it again. */
export const simulatedCarrierMessageId = (messageId: string, part: number) => `sim-${messageId}-${part}`;

/**
 * The TEST carrier simulator, shared by every carrier name under TEST. It keeps no state that
 * matters: carrier ids are derived from the message id, outcomes from the number (sandbox
 * numbers), so submitting the same message again schedules the same receipts again. That is how
 * receipts lost to a restart are recovered (TestCarrierResume), and why a duplicate is harmless.
 */
export class TestCarrierSimulator {
  private sink: ReceiptSink | null = null;
  private running = false;
  private readonly scheduled = new Map<string, NodeJS.Timeout>();
  private readonly carriers = new Map<string, TestCarrier>();

  constructor(private readonly options: TestCarrierOptions) {}

  /** The simulated carrier for a route's carrier name (MTN, TELECEL, an operator's…). */
  carrier(name: string): TestCarrier {
    let carrier = this.carriers.get(name);
    if (!carrier) {
      carrier = new TestCarrier(name, this);
      this.carriers.set(name, carrier);
    }
    return carrier;
  }

  carriersCreated(): TestCarrier[] {
    return [...this.carriers.values()];
  }

  start(sink: ReceiptSink): void {
    this.sink = sink;
    this.running = true;
  }

  stop(): void {
    this.running = false;
    for (const timer of this.scheduled.values()) clearTimeout(timer);
    this.scheduled.clear();
  }

  /** True while receipts for this message are scheduled in this process. */
  isScheduled(messageId: string): boolean {
    return this.scheduled.has(messageId);
  }

  submit(
    carrierName: string,
    message: OutboundMessage,
    kind: 'submit' | 'resubmit' = 'submit',
  ): SubmitResult {
    recordSubmission(message.messageId, kind);
    const outcome = simulatedOutcome(message.to);
    if (outcome.stage === 'submit') {
      return { outcome: 'rejected', errorCode: outcome.errorCode, errorMessage: outcome.errorMessage };
    }
    const ids = Array.from({ length: message.segments }, (_, i) =>
      simulatedCarrierMessageId(message.messageId, i + 1),
    );
    if (this.running && !this.scheduled.has(message.messageId)) {
      const timer = setTimeout(
        () => void this.report(carrierName, message.messageId, ids, outcome),
        this.options.dlrDelayMs,
      );
      timer.unref?.();
      this.scheduled.set(message.messageId, timer);
    }
    return { outcome: 'accepted', carrierMessageIds: ids };
  }

  private async report(
    carrierName: string,
    messageId: string,
    ids: readonly string[],
    outcome: Extract<ReturnType<typeof simulatedOutcome>, { stage: 'receipt' }>,
  ): Promise<void> {
    try {
      for (const id of ids) {
        if (!this.running || !this.sink) return;
        await this.sink.receipt({
          carrier: carrierName,
          environment: 'TEST',
          carrierMessageIdCandidates: [id],
          status: outcome.status,
          carrierStatus: outcome.carrierStatus,
          errorCode: outcome.errorCode,
          errorMessage: outcome.errorMessage,
          reportedAt: (this.options.now ?? (() => new Date()))(),
          messageId,
        });
      }
    } catch (error) {
      // Not lost: the message stays SENT and the resume loop submits it to the simulator again.
      (this.options.log ?? console.error)(`simulated receipt for ${messageId} failed`, error);
    } finally {
      this.scheduled.delete(messageId);
    }
  }
}

/** One carrier name's face of the simulator. */
export class TestCarrier implements Carrier {
  /** Submitting an already SENT message again only re-schedules its receipts (nothing is sent). */
  readonly resubmitIsSafe = true;

  constructor(
    readonly name: string,
    private readonly simulator: TestCarrierSimulator,
  ) {}

  async submit(message: OutboundMessage): Promise<SubmitResult> {
    return this.simulator.submit(this.name, message);
  }

  /** TestCarrierResume's re-submission of a SENT message (only told apart in the submission log). */
  async resubmit(message: OutboundMessage): Promise<SubmitResult> {
    return this.simulator.submit(this.name, message, 'resubmit');
  }

  async start(sink: ReceiptSink): Promise<void> {
    this.simulator.start(sink);
  }

  async stop(): Promise<void> {
    this.simulator.stop();
  }
}

/**
 * Test hook: with TEST_CARRIER_SUBMISSION_LOG=/path/file every submission to the simulator
 * appends one line `<message id> <submit|resubmit> <pid>` (O_APPEND, so several processes can
 * share the file). The reliability suites count carrier submissions per message with it across
 * crashes and processes. Unset (always, outside tests): nothing is written.
 */
function recordSubmission(messageId: string, kind: 'submit' | 'resubmit'): void {
  const file = process.env.TEST_CARRIER_SUBMISSION_LOG;
  if (file) appendFileSync(file, `${messageId} ${kind} ${process.pid}\n`);
}
