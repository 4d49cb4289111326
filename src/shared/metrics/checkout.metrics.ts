import { Injectable } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { MetricsRegistry } from './metrics.registry';

/** A checkout whose final event (succeeded, failed, expired) was just recorded. */
export interface FinishedCheckout {
  readonly status: string;
  readonly started: { readonly environment: string } | null;
}

/** Checkout outcomes, counted once by the process that records them. */
@Injectable()
export class CheckoutMetrics {
  private readonly outcomes: Counter<'environment' | 'status'>;

  constructor(metrics: MetricsRegistry) {
    this.outcomes = metrics.counter(
      'sms_checkout_outcomes_total',
      'Checkouts that reached a final status (succeeded, failed, expired).',
      ['environment', 'status'],
    );
  }

  /** Counts a checkout its caller just finished; null (nothing finished) is ignored. */
  finished(checkout: FinishedCheckout | null): void {
    if (!checkout?.started) return;
    this.outcomes.inc({ environment: checkout.started.environment, status: checkout.status });
  }
}
