import { Injectable } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { MetricsRegistry } from './metrics.registry';

export type WebhookDeliveryResult = 'succeeded' | 'failed' | 'abandoned';

/** Webhook delivery attempts as the delivery worker records them. */
@Injectable()
export class WebhookMetrics {
  private readonly deliveries: Counter<'result'>;

  constructor(metrics: MetricsRegistry) {
    this.deliveries = metrics.counter(
      'sms_webhook_deliveries_total',
      'Webhook delivery attempts by result: succeeded (2xx), failed (retried later), abandoned (given up).',
      ['result'],
    );
  }

  delivered(result: WebhookDeliveryResult): void {
    this.deliveries.inc({ result });
  }
}
