import { Command } from '@nestjs/cqrs';
import type { IncomingHttpHeaders } from 'node:http';

export interface WebhookReceipt {
  readonly object: 'webhook_receipt';
  readonly received: true;
}

/**
 * A Paystack event, exactly as received: its signature covers the raw bytes, so it is checked
 * before anything in the body is read, and even then the payment is verified server to server.
 */
export class AcceptPaystackWebhook extends Command<WebhookReceipt> {
  constructor(
    readonly rawBody: Buffer,
    readonly headers: IncomingHttpHeaders,
  ) {
    super();
  }
}
