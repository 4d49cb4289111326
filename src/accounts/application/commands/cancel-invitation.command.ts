import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../shared/actor';

/** An open invitation withdrawn: its link stops working. */
export class CancelInvitation extends Command<void> {
  constructor(
    readonly accountId: string,
    readonly invitationId: string,
    readonly actor: Actor,
  ) {
    super();
  }
}
