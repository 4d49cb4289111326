import { Query } from '@nestjs/cqrs';
import type { ApiWebhookEndpoint } from '../../projections/webhook-endpoints.projection';

/** One of the wallet's endpoints (without its secret); another wallet's is a 404. */
export class WebhookEndpointById extends Query<ApiWebhookEndpoint> {
  constructor(
    readonly walletId: string,
    readonly id: unknown,
  ) {
    super();
  }
}
