import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../shared/actor';
import type { InvitationView } from '../../projections/members.projection';

/** An owner or admin invites someone by e-mail with a role; the link goes out by mail, valid 7 days. */
export class InviteMember extends Command<InvitationView> {
  constructor(
    readonly accountId: string,
    readonly email: string,
    readonly role: string,
    readonly actor: Actor,
  ) {
    super();
  }
}
