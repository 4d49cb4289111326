import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { invalid, notFound } from '../../../shared/domain-error';
import { EVENT_STORE, EventStore } from '../../../shared/event-store/event-store.port';
import { ListPage, page } from '../../../shared/http/pagination';
import { isIdOf } from '../../../shared/ids';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import { READ_STORE, ReadStore } from '../../../shared/read-store/read-store.port';
import { WebhookEventObject, WebhookEventRecorded, webhookEventsStream } from '../../domain/webhook.events';
import {
  WEBHOOK_EVENT_INDEX,
  WEBHOOK_OUTBOX_PROJECTION,
  WebhookEventIndexDoc,
} from '../../projections/webhook-outbox.projection';
import { WebhookEventsPage } from './webhook-events-page.query';

/** Read from the wallet's own event stream; the index only finds where `after` is in it. */
@QueryHandler(WebhookEventsPage)
export class WebhookEventsPageHandler implements IQueryHandler<
  WebhookEventsPage,
  ListPage<WebhookEventObject>
> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly projections: ProjectionsService,
  ) {}

  async execute({ walletId, limit, after }: WebhookEventsPage): Promise<ListPage<WebhookEventObject>> {
    let from = 0n;
    if (after !== undefined && after !== '') {
      if (!isIdOf('evt', after))
        throw invalid('parameter_invalid', 'after must be an event id (evt_…)', 'after');
      let cursor = await this.reads.get<WebhookEventIndexDoc>(WEBHOOK_EVENT_INDEX, after);
      if (!cursor) {
        // Recorded a moment ago and not indexed yet? Catch the index up once before saying no.
        await this.projections.catchUp([WEBHOOK_OUTBOX_PROJECTION]);
        cursor = await this.reads.get<WebhookEventIndexDoc>(WEBHOOK_EVENT_INDEX, after);
      }
      if (!cursor || cursor.walletId !== walletId) throw notFound('event', 'after');
      from = BigInt(cursor.revision) + 1n;
    }
    const recorded = await this.events.readStream(webhookEventsStream(walletId), {
      fromRevision: from,
      limit: limit + 1,
    });
    return page(
      recorded.map((e) => (e.data as WebhookEventRecorded['data']).event),
      limit,
    );
  }
}
