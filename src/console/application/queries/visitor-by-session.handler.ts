import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccountReader } from '../../../accounts/application/account-reader';
import { ConsoleSessions } from '../console-sessions.service';
import { VisitorBySession, SignedInVisitor } from './visitor-by-session.query';

@QueryHandler(VisitorBySession)
export class VisitorBySessionHandler implements IQueryHandler<VisitorBySession, SignedInVisitor | null> {
  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly accounts: AccountReader,
  ) {}

  async execute({ sessionId }: VisitorBySession): Promise<SignedInVisitor | null> {
    const session = await this.sessions.find(sessionId);
    const account = session ? await this.accounts.byId(session.accountId) : null;
    // An account has one user today, its owner; members with other roles arrive with teams.
    return session && account ? { session, account, role: 'owner' } : null;
  }
}
