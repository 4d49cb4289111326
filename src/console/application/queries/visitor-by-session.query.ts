import { Query } from '@nestjs/cqrs';
import type { AccountView } from '../../../accounts/projections/accounts.projection';
import type { ConsoleSession } from '../console-sessions.service';

export interface SignedInVisitor {
  readonly session: ConsoleSession;
  readonly account: AccountView;
}

/** Who holds this session cookie: a live session and its account, or null. */
export class VisitorBySession extends Query<SignedInVisitor | null> {
  constructor(readonly sessionId: string | undefined) {
    super();
  }
}
