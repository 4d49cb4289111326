import { Query } from '@nestjs/cqrs';
import type { ApiMessage } from '../../projections/messages.projection';
import type { ReadScope } from '../message-reader';

/** One message with its delivery report; another wallet's (or environment's) id is a 404. */
export class MessageById extends Query<ApiMessage> {
  constructor(
    readonly id: unknown,
    readonly scope: ReadScope,
  ) {
    super();
  }
}
