import { Query } from '@nestjs/cqrs';
import type { AccountView } from '../../../accounts/projections/accounts.projection';
import type { Role } from '../../../accounts/domain/roles';
import type { ConsoleSession } from '../console-sessions.service';

export interface SignedInVisitor {
  readonly session: ConsoleSession;
  readonly account: AccountView;
  /** The visitor's role in the account, which decides what the console lets them do. */
  readonly role: Role;
}

/** Who holds this session cookie: a live session and its account, or null. */
export class VisitorBySession extends Query<SignedInVisitor | null> {
  constructor(readonly sessionId: string | undefined) {
    super();
  }
}
