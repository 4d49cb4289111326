import { Query } from '@nestjs/cqrs';
import type { InvitationView, MemberView } from '../../projections/members.projection';

export interface AccountMembersView {
  readonly members: readonly MemberView[];
  /** Invitations not accepted, canceled or replaced yet, and not expired. */
  readonly invitations: readonly InvitationView[];
}

/** The Members page: who belongs to the account, and who is invited. */
export class AccountMembers extends Query<AccountMembersView> {
  constructor(readonly accountId: string) {
    super();
  }
}
