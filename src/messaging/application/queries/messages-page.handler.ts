import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { invalid, notFound } from '../../../shared/domain-error';
import { isIdOf } from '../../../shared/ids';
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
    if (batch !== undefined) {
      // Another wallet's batch is answered exactly like an unknown one.
      const record = await this.messages.batch(batch);
      if (!record || record.walletId !== scope.walletId || record.environment !== scope.environment)
        throw notFound('batch', 'batch');
    }
    await this.projections.catchUp([MESSAGES_PROJECTION]);
    let afterSort: string | undefined;
    if (startingAfter !== undefined && startingAfter !== '') {
      const cursor = await this.messages.find(startingAfter, scope);
      if (!cursor) throw notFound('message', 'starting_after');
      afterSort = cursor.sort;
    }
    const docs =
      batch !== undefined
        ? await this.messages.listBatch(batch, limit + 1, afterSort)
        : await this.messages.list(scope.walletId, limit + 1, afterSort);
    return page(docs.filter((d) => d.environment === scope.environment).map(toApiMessage), limit);
  }

  /**
   * A campaign's messages, newest first. Messaging knows campaigns only by the id on their
   * messages: a campaign is another wallet's, or unknown, when its messages are not this wallet's
   * (a campaign answered to its caller has written its first messages already).
   */
  private async campaignPage(
    scope: MessagesPage['scope'],
    limit: number,
    campaign: string,
    startingAfter: string | undefined,
  ): Promise<ListPage<ApiMessage>> {
    if (!isIdOf('cmp', campaign)) throw notFound('campaign', 'campaign');
    await this.projections.catchUp([MESSAGES_PROJECTION]);
    let afterSort: string | undefined;
    if (startingAfter !== undefined && startingAfter !== '') {
      const cursor = await this.messages.find(startingAfter, scope);
      if (!cursor) throw notFound('message', 'starting_after');
      afterSort = cursor.sort;
    }
    const docs = await this.messages.listBatch(campaign, limit + 1, afterSort);
    const foreign = docs.some((d) => d.walletId !== scope.walletId || d.environment !== scope.environment);
    if (foreign || (afterSort === undefined && docs.length === 0)) throw notFound('campaign', 'campaign');
    return page(docs.map(toApiMessage), limit);
  }
}
