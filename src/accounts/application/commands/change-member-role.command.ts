import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../shared/actor';

/** A member gets another role (never the owner: the owner hands the account over instead). */
export class ChangeMemberRole extends Command<void> {
  constructor(
    readonly accountId: string,
    readonly memberId: string,
    readonly role: string,
    readonly actor: Actor,
  ) {
    super();
  }
}
