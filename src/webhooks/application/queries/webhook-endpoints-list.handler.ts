import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ListPage, page } from '../../../shared/http/pagination';
import { ApiWebhookEndpoint, toApiEndpoint } from '../../projections/webhook-endpoints.projection';
import { WebhookEndpoints } from '../webhook-endpoints.service';
import { WebhookEndpointsList } from './webhook-endpoints-list.query';

@QueryHandler(WebhookEndpointsList)
export class WebhookEndpointsListHandler implements IQueryHandler<
  WebhookEndpointsList,
  ListPage<ApiWebhookEndpoint>
> {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  async execute({ walletId }: WebhookEndpointsList): Promise<ListPage<ApiWebhookEndpoint>> {
    const docs = await this.endpoints.ofWallet(walletId);
    return page(docs.map(toApiEndpoint), docs.length);
  }
}
