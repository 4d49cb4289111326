import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ApiMessage, toApiMessage } from '../../projections/messages.projection';
import { MessageReader } from '../message-reader';
import { MessagesByIds } from './messages-by-ids.query';

@QueryHandler(MessagesByIds)
export class MessagesByIdsHandler implements IQueryHandler<MessagesByIds, (ApiMessage | null)[]> {
  constructor(private readonly messages: MessageReader) {}

  async execute({ scope, ids }: MessagesByIds): Promise<(ApiMessage | null)[]> {
    const docs = await Promise.all(ids.map((id) => this.messages.find(id, scope)));
    return docs.map((doc) => (doc ? toApiMessage(doc) : null));
  }
}
