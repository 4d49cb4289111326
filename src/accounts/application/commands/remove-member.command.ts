import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../shared/actor';

/** The member leaves the account; their sessions in it end. */
export class RemoveMember extends Command<void> {
  constructor(
    readonly accountId: string,
    readonly memberId: string,
    readonly actor: Actor,
  ) {
    super();
  }
}
