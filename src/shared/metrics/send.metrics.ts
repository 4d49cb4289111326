import { Injectable } from '@nestjs/common';
import type { Counter, Histogram } from 'prom-client';
import { MetricsRegistry } from './metrics.registry';

/**
 * `messages`: POST /v1/messages; `batch`: POST /v1/messages/batch (one request, however many
 * items); `sandbox`: the key-less try-out, POST /v1/sandbox/messages. The web pages that send:
 * `console` (the console's Send, POST /console/send), `console_batch` (Send to many, POST
 * /console/send-many) and `try` (the try-out page, POST /try).
 */
export type SendEndpoint = 'messages' | 'batch' | 'sandbox' | 'console' | 'console_batch' | 'try';

export interface AnsweredSend {
  readonly endpoint: SendEndpoint;
  /** TEST, LIVE, or `unknown` for a refusal that came before the key was read. */
  readonly environment: string;
  readonly status: number;
  /**
   * The error body's `code` for a refusal; also set on a 2xx that sent nothing (a batch whose
   * every item was refused, `batch_refused`), which counts as refused.
   */
  readonly code: string | undefined;
  /** `replayed`: answered again from an Idempotency-Key (or a form's token), not a new decision. */
  readonly result: 'accepted' | 'replayed' | 'refused';
  readonly seconds: number;
}

/** 1 ms to 1 s, where a send's answer time lives (docs/performance.md). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

/** Sends as the HTTP edge answered them (counted by send-metrics.hooks.ts, not by controllers or handlers). */
@Injectable()
export class SendMetrics {
  private readonly accepted: Counter<'endpoint' | 'environment'>;
  private readonly replays: Counter<'endpoint' | 'environment'>;
  private readonly refused: Counter<'endpoint' | 'environment' | 'code'>;
  private readonly duration: Histogram<'endpoint' | 'result'>;

  constructor(metrics: MetricsRegistry) {
    this.accepted = metrics.counter(
      'sms_sends_accepted_total',
      'Send requests that made a new message (or batch): API sends answered 2xx, console and try-out forms that sent.',
      ['endpoint', 'environment'],
    );
    this.replays = metrics.counter(
      'sms_sends_replayed_total',
      'Send requests answered again from their Idempotency-Key (no new message).',
      ['endpoint', 'environment'],
    );
    this.refused = metrics.counter(
      'sms_sends_refused_total',
      "Send requests refused, by the error body's code.",
      ['endpoint', 'environment', 'code'],
    );
    this.duration = metrics.histogram(
      'sms_send_duration_seconds',
      'Time from the request arriving to its answer being sent, for send requests.',
      ['endpoint', 'result'],
      LATENCY_BUCKETS,
    );
  }

  answered(send: AnsweredSend): void {
    const { endpoint, environment, result } = send;
    if (result === 'replayed') this.replays.inc({ endpoint, environment });
    else if (result === 'accepted') this.accepted.inc({ endpoint, environment });
    else this.refused.inc({ endpoint, environment, code: send.code ?? `http_${send.status}` });
    this.duration.observe({ endpoint, result }, send.seconds);
  }
}
