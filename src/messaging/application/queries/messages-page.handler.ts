import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { invalid, notFound } from '../../../shared/domain-error';
import { isIdOf } from '../../../shared/ids';
import { campaignMessageId, campaignOfMessage, MAX_CAMPAIGN_PLACE } from '../../domain/campaign-message-ids';
import { ListPage, page } from '../../../shared/http/pagination';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import { ApiMessage, MESSAGES_PROJECTION, toApiMessage } from '../../projections/messages.projection';
import { MessageReader } from '../message-reader';
import { MessagesPage } from './messages-page.query';

/**
 * Lists from the read model once it has caught up with the log: a send answers before the read
 * model has its message, and the list must still show what the caller was just told.
 */
@QueryHandler(MessagesPage)
export class MessagesPageHandler implements IQueryHandler<MessagesPage, ListPage<ApiMessage>> {
  constructor(
    private readonly messages: MessageReader,
    private readonly projections: ProjectionsService,
  ) {}

  async execute({
    scope,
    limit,
    startingAfter,
    batch,
    campaign,
  }: MessagesPage): Promise<ListPage<ApiMessage>> {
    if (batch !== undefined && campaign !== undefined)
      throw invalid(
        'parameter_invalid',
        'List the messages of a batch or of a campaign, not both',
        'campaign',
      );
    if (campaign !== undefined) return this.campaignPage(scope, limit, campaign, startingAfter);
    if (batch !== undefined) return this.batchPage(scope, limit, batch, startingAfter);
    await this.projections.catchUp([MESSAGES_PROJECTION]);
    let afterSort: string | undefined;
    if (startingAfter !== undefined && startingAfter !== '') {
      const cursor = await this.messages.find(startingAfter, scope);
      if (!cursor) throw notFound('message', 'starting_after');
      afterSort = cursor.sort;
    }
    const docs = await this.messages.list(scope.walletId, limit + 1, afterSort);
    return page(docs.filter((d) => d.environment === scope.environment).map(toApiMessage), limit);
  }

  /** A batch's messages, newest first, as its record names them; another wallet's batch is unknown. */
  private async batchPage(
    scope: MessagesPage['scope'],
    limit: number,
    batch: string,
    startingAfter: string | undefined,
  ): Promise<ListPage<ApiMessage>> {
    const record = await this.messages.batch(batch);
    if (!record || record.walletId !== scope.walletId || record.environment !== scope.environment)
      throw notFound('batch', 'batch');
    const docs = await this.messages.listBatch(record, scope, limit + 1, startingAfter || undefined);
    if (!docs) throw notFound('message', 'starting_after');
    return page(docs.map(toApiMessage), limit);
  }

  /**
   * A campaign's messages, newest first. Messaging knows a campaign only by its messages, whose ids
   * are derived from the campaign and each recipient's place in its list, written in order: the
   * newest place is found by a binary search on which messages exist, and a page reads its
   * messages by id (from the read model, or the log until the read model has them). A campaign
   * whose first message is not this wallet's is unknown here.
   */
  private async campaignPage(
    scope: MessagesPage['scope'],
    limit: number,
    campaign: string,
    startingAfter: string | undefined,
  ): Promise<ListPage<ApiMessage>> {
    if (!isIdOf('cmp', campaign)) throw notFound('campaign', 'campaign');
    const at = (place: number) => this.messages.find(campaignMessageId(campaign, place), scope);
    if (!(await at(0))) throw notFound('campaign', 'campaign');
    let top: number;
    if (startingAfter !== undefined && startingAfter !== '') {
      const cursor = campaignOfMessage(startingAfter);
      if (!cursor || cursor.campaignId !== campaign || !(await at(cursor.place)))
        throw notFound('message', 'starting_after');
      top = cursor.place - 1;
    } else {
      top = await this.lastPlace(at);
    }
    const docs: ApiMessage[] = [];
    for (let place = top; place >= 0 && docs.length <= limit; place -= limit + 1) {
      const from = Math.max(0, place - limit);
      const found = await Promise.all(Array.from({ length: place - from + 1 }, (_, i) => at(place - i)));
      for (const doc of found) if (doc && docs.length <= limit) docs.push(toApiMessage(doc));
    }
    return page(docs, limit);
  }

  /** The highest place with a message (place 0 has one): doubling, then halving. */
  private async lastPlace(at: (place: number) => Promise<unknown>): Promise<number> {
    let low = 0;
    let high = 1;
    while (high <= MAX_CAMPAIGN_PLACE && (await at(high))) {
      low = high;
      high *= 2;
    }
    high = Math.min(high, MAX_CAMPAIGN_PLACE + 1);
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (await at(middle)) low = middle;
      else high = middle;
    }
    return low;
  }
}
