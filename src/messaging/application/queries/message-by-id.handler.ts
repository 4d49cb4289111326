import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { notFound } from '../../../shared/domain-error';
import { ApiMessage, toApiMessage } from '../../projections/messages.projection';
import { MessageReader } from '../message-reader';
import { MessageById } from './message-by-id.query';

@QueryHandler(MessageById)
export class MessageByIdHandler implements IQueryHandler<MessageById, ApiMessage> {
  constructor(private readonly messages: MessageReader) {}

  async execute({ id, scope }: MessageById): Promise<ApiMessage> {
    const doc = await this.messages.find(id, scope);
    if (!doc) throw notFound('message', 'id');
    return toApiMessage(doc);
  }
}
