import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../shared/actor';
import type { ApiSenderId } from '../../projections/compliance.projection';

/** A merchant asks the carriers, through the operator, to register a sender ID for its account. */
export class RequestSenderId extends Command<ApiSenderId> {
  constructor(
    readonly accountId: string,
    readonly senderId: unknown,
    readonly sampleMessage: unknown,
    readonly actor?: Actor,
  ) {
    super();
  }
}
