import { Query } from '@nestjs/cqrs';
import type { ListPage } from '../../../shared/http/pagination';
import type { WebhookEventObject } from '../../domain/webhook.events';

/** The wallet's webhook events oldest first (GET /v1/events), after the event `after`. */
export class WebhookEventsPage extends Query<ListPage<WebhookEventObject>> {
  constructor(
    readonly walletId: string,
    readonly limit: number,
    readonly after?: string,
  ) {
    super();
  }
}
