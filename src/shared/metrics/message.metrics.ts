import { Injectable } from '@nestjs/common';
import type { Counter, Histogram } from 'prom-client';
import { MetricsRegistry } from './metrics.registry';

/** A message whose terminal event was just recorded, as far as its metrics need it. */
export interface FinishedMessage {
  readonly carrier: string;
  readonly environment: string;
  /** When it was accepted (MessageQueued). */
  readonly createdAt: string;
  readonly outcome: { readonly status: string; readonly at: string } | null;
}

/** What the dispatcher has to do: the durable list (all processes) and this process's share of it. */
export interface DispatchBacklog {
  /** Messages on the durable "to dispatch" list: queued, deferred, or being submitted. */
  readonly pending: number;
  /** Of those, hinted to this process's dispatcher and waiting for a free slot. */
  readonly waiting: number;
  /** Of those, being claimed and submitted by this process's dispatcher right now. */
  readonly submitting: number;
  /** Of those, due within minutes: a wake-up timer of this process's dispatcher waits for their time. */
  readonly wakeUps: number;
}

/** From a second to the LIVE validity period (48 h): receipts come fast, expiries late. */
const OUTCOME_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 21600, 86400, 172800];

/**
 * Message outcomes, counted once, by the process that records the terminal event (receipts,
 * carrier rejections, the expiry sweep): never by a projection, which several processes apply.
 */
@Injectable()
export class MessageMetrics {
  private readonly outcomes: Counter<'carrier' | 'environment' | 'status'>;
  private readonly acceptToOutcome: Histogram<'carrier' | 'environment' | 'status'>;

  constructor(private readonly metrics: MetricsRegistry) {
    this.outcomes = metrics.counter(
      'sms_message_outcomes_total',
      'Messages that reached a final status (DELIVERED, FAILED, EXPIRED), by carrier and environment.',
      ['carrier', 'environment', 'status'],
    );
    this.acceptToOutcome = metrics.histogram(
      'sms_message_accept_to_outcome_seconds',
      "Time from a message's acceptance to its final status.",
      ['carrier', 'environment', 'status'],
      OUTCOME_BUCKETS,
    );
  }

  /** Counts a message its caller just finished; null (nothing finished) is ignored. */
  finished(message: FinishedMessage | null): void {
    if (!message?.outcome) return;
    const labels = {
      carrier: message.carrier,
      environment: message.environment,
      status: message.outcome.status,
    };
    this.outcomes.inc(labels);
    const seconds = (Date.parse(message.outcome.at) - Date.parse(message.createdAt)) / 1000;
    if (Number.isFinite(seconds)) this.acceptToOutcome.observe(labels, Math.max(0, seconds));
  }

  /** Registers the dispatcher's backlog, read at every scrape. */
  dispatchBacklogFrom(sample: () => Promise<DispatchBacklog>): void {
    this.metrics.gaugeAtScrape(
      'sms_dispatch_backlog',
      'Messages waiting to be handed to a carrier (the durable to-dispatch list, all processes).',
      [],
      async () => [{ value: (await sample()).pending }],
    );
    this.metrics.gaugeAtScrape(
      'sms_dispatcher_in_memory',
      "This process's dispatcher: messages waiting for a slot, being submitted, and due within minutes (a wake-up timer).",
      ['state'],
      async () => {
        const backlog = await sample();
        return [
          { labels: { state: 'waiting' }, value: backlog.waiting },
          { labels: { state: 'submitting' }, value: backlog.submitting },
          { labels: { state: 'wake_up' }, value: backlog.wakeUps },
        ];
      },
    );
  }
}
