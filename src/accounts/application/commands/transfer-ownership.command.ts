import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../shared/actor';

/** The owner hands the account over to another member, and stays on as an admin. */
export class TransferOwnership extends Command<void> {
  constructor(
    readonly accountId: string,
    readonly memberId: string,
    readonly actor: Actor,
  ) {
    super();
  }
}
