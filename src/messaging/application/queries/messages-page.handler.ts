import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { notFound } from '../../../shared/domain-error';
import { ListPage, page } from '../../../shared/http/pagination';
import { ApiMessage, toApiMessage } from '../../projections/messages.projection';
import { MessageReader } from '../message-reader';
import { MessagesPage } from './messages-page.query';

@QueryHandler(MessagesPage)
export class MessagesPageHandler implements IQueryHandler<MessagesPage, ListPage<ApiMessage>> {
  constructor(private readonly messages: MessageReader) {}

  async execute({ scope, limit, startingAfter }: MessagesPage): Promise<ListPage<ApiMessage>> {
    let afterSort: string | undefined;
    if (startingAfter !== undefined && startingAfter !== '') {
      const cursor = await this.messages.find(startingAfter, scope);
      if (!cursor) throw notFound('message', 'starting_after');
      afterSort = cursor.sort;
    }
    const docs = await this.messages.list(scope.walletId, limit + 1, afterSort);
    return page(docs.filter((d) => d.environment === scope.environment).map(toApiMessage), limit);
  }
}
