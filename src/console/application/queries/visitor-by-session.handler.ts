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

  /**
   * The member's role is read on every request, so a change counts from the next page on; a member
   * removed from the account has no session in it any more.
   */
  async execute({ sessionId }: VisitorBySession): Promise<SignedInVisitor | null> {
    const session = await this.sessions.find(sessionId);
    if (!session) return null;
    const [member, account] = await Promise.all([
      this.accounts.member(session.memberId),
      this.accounts.byId(session.accountId),
    ]);
    if (!member || member.accountId !== session.accountId || !account) return null;
    return { session, account, role: member.role };
  }
}
