import { Query } from '@nestjs/cqrs';
import type { Role } from '../../domain/roles';

/** What the invitation page shows before it is accepted. */
export interface InvitationSummary {
  readonly accountId: string;
  readonly email: string;
  readonly role: Role;
  readonly invitedBy: string;
  readonly expiresAt: string;
  /** The e-mail has a login already: accepting asks for its password rather than a new one. */
  readonly hasLogin: boolean;
}

/** The open invitation a link's token opens, or null (unknown, used, canceled, replaced or expired). */
export class InvitationByToken extends Query<InvitationSummary | null> {
  constructor(readonly token: string) {
    super();
  }
}
