import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { openInvitation } from '../../domain/members';
import { AccountChanges } from '../account-changes.service';
import { AccountReader } from '../account-reader';
import { parseInvitationToken } from '../invitation-token';
import { InvitationByToken, InvitationSummary } from './invitation-by-token.query';

@QueryHandler(InvitationByToken)
export class InvitationByTokenHandler implements IQueryHandler<InvitationByToken, InvitationSummary | null> {
  constructor(
    private readonly changes: AccountChanges,
    private readonly accounts: AccountReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ token }: InvitationByToken): Promise<InvitationSummary | null> {
    const parsed = parseInvitationToken(token);
    if (!parsed) return null;
    const invitation = openInvitation(
      await this.changes.state(parsed.accountId),
      parsed.hash,
      this.clock.now(),
    );
    if (!invitation) return null;
    const listed = (await this.accounts.invitations(parsed.accountId)).find(
      (i) => i.id === invitation.invitationId,
    );
    return {
      accountId: parsed.accountId,
      email: invitation.email,
      role: invitation.role,
      invitedBy: listed?.invited_by ?? 'the account’s owner',
      expiresAt: invitation.expiresAt,
      hasLogin: (await this.accounts.byEmail(invitation.email)) !== null,
    };
  }
}
