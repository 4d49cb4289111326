import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { notFound } from '../../../shared/domain-error';
import { isIdOf } from '../../../shared/ids';
import { READ_STORE, ReadStore } from '../../../shared/read-store/read-store.port';
import {
  ApiWebhookEndpoint,
  toApiEndpoint,
  WEBHOOK_ENDPOINTS,
  WebhookEndpointDoc,
} from '../../projections/webhook-endpoints.projection';
import { WebhookEndpointById } from './webhook-endpoint-by-id.query';

@QueryHandler(WebhookEndpointById)
export class WebhookEndpointByIdHandler implements IQueryHandler<WebhookEndpointById, ApiWebhookEndpoint> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ walletId, id }: WebhookEndpointById): Promise<ApiWebhookEndpoint> {
    const doc = isIdOf('we', id) ? await this.reads.get<WebhookEndpointDoc>(WEBHOOK_ENDPOINTS, id) : null;
    if (!doc || doc.walletId !== walletId) throw notFound('webhook endpoint', 'id');
    return toApiEndpoint(doc);
  }
}
