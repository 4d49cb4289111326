import { Query } from '@nestjs/cqrs';
import type { ListPage } from '../../../shared/http/pagination';
import type { ApiWebhookEndpoint } from '../../projections/webhook-endpoints.projection';

/** The wallet's endpoints, oldest first, without their secrets. */
export class WebhookEndpointsList extends Query<ListPage<ApiWebhookEndpoint>> {
  constructor(readonly walletId: string) {
    super();
  }
}
