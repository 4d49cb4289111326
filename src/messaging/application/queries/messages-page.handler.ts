import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { notFound } from '../../../shared/domain-error';
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

  async execute({ scope, limit, startingAfter, batch }: MessagesPage): Promise<ListPage<ApiMessage>> {
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
}
