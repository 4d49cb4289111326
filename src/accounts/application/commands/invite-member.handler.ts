import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { invalid } from '../../../shared/domain-error';
import { newId, randomToken } from '../../../shared/ids';
import { SECRET_BOX, SecretBox } from '../../../shared/secret-box';
import { isEmailAddress, normaliseEmail } from '../../domain/email';
import { invite } from '../../domain/members';
import type { InvitationView } from '../../projections/members.projection';
import { AccountChanges } from '../account-changes.service';
import { AccountReader } from '../account-reader';
import { InviteMember } from './invite-member.command';
import { tokenHash } from './request-password-reset.handler';

/**
 * Records the invitation (the mail follows from it, through the outbox): the token as its hash to
 * check the link against, and sealed for the mail. The token is `<account id>.<secret>`, so an
 * accepted link finds its account without an index.
 */
@CommandHandler(InviteMember)
export class InviteMemberHandler implements ICommandHandler<InviteMember, InvitationView> {
  constructor(
    private readonly changes: AccountChanges,
    private readonly accounts: AccountReader,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, email, role, actor }: InviteMember): Promise<InvitationView> {
    if (!isEmailAddress(email)) throw invalid('invalid_email', 'email must be an email address', 'email');
    const invitationId = newId('inv');
    const token = `${accountId}.${randomToken(43)}`;
    await this.changes.decide(accountId, (a) =>
      invite(a, {
        invitationId,
        email: normaliseEmail(email),
        role,
        tokenHash: tokenHash(token),
        sealedToken: this.secrets.seal(token),
        actor,
        now: this.clock.now(),
      }),
    );
    const invitations = await this.accounts.invitations(accountId);
    return invitations.find((i) => i.id === invitationId)!;
  }
}
