import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { invalid } from '../../../shared/domain-error';
import { ConcurrencyError, EVENT_STORE, EventStore } from '../../../shared/event-store/event-store.port';
import { newId } from '../../../shared/ids';
import { emailStream, type LoginCreated } from '../../domain/account.events';
import { acceptInvitation, invitationInvalid, openInvitation } from '../../domain/members';
import { hashPassword, passwordRefusal, verifyPassword } from '../../domain/password';
import { loginIdOf } from '../../projections/accounts.projection';
import { AccountChanges } from '../account-changes.service';
import { AccountReader } from '../account-reader';
import { parseInvitationToken } from '../invitation-token';
import { AcceptInvitation, JoinedAccount } from './accept-invitation.command';
import { emailHash } from './register-account.handler';

const wrongPassword = () =>
  invalid(
    'wrong_password',
    'That is not the password of the login with this e-mail. Use it, or ask for a reset link on the sign-in page.',
    'password',
  );

/**
 * Joins the account the link belongs to as the invitation's e-mail: its existing login (whose
 * password must match), or a login made now with the new password, which claims the e-mail's
 * stream like a sign-up so the address stays one person's. Then `MemberJoined` at the account's
 * revision: a link works once.
 */
@CommandHandler(AcceptInvitation)
export class AcceptInvitationHandler implements ICommandHandler<AcceptInvitation, JoinedAccount> {
  constructor(
    private readonly changes: AccountChanges,
    private readonly accounts: AccountReader,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ token, password, ip }: AcceptInvitation): Promise<JoinedAccount> {
    const parsed = parseInvitationToken(token);
    if (!parsed) throw invitationInvalid();
    const invitation = openInvitation(
      await this.changes.state(parsed.accountId),
      parsed.hash,
      this.clock.now(),
    );
    if (!invitation) throw invitationInvalid();
    const loginId = await this.login(invitation.email, password);
    const joined = await this.changes.decide(parsed.accountId, (a) =>
      acceptInvitation(a, { tokenHash: parsed.hash, loginId, ip, now: this.clock.now() }),
    );
    const member = [...joined.state.members.values()].find((m) => m.email === invitation.email)!;
    return { accountId: parsed.accountId, memberId: member.memberId, loginId, email: invitation.email };
  }

  /** The login of `email` the password opens, made now when the e-mail has none. */
  private async login(email: string, password: string): Promise<string> {
    if (typeof password !== 'string') throw wrongPassword();
    const existing = await this.accounts.byEmail(email);
    if (existing) {
      if (!(await verifyPassword(password, existing.passwordHash))) throw wrongPassword();
      return loginIdOf(existing);
    }
    const refusal = passwordRefusal(password);
    if (refusal) throw refusal;
    const created: LoginCreated['data'] = {
      userId: newId('usr'),
      email,
      passwordHash: await hashPassword(password),
      createdAt: this.clock.now().toISOString(),
    };
    try {
      await this.events.append(
        emailStream(emailHash(email)),
        [{ type: 'LoginCreated', data: created }],
        'no_stream',
      );
    } catch (error) {
      // Claimed meanwhile (a sign-up, or this link used twice at once): that login's password decides.
      if (!(error instanceof ConcurrencyError)) throw error;
      throw invalid(
        'login_exists',
        'A login with this e-mail was just made: sign in with its password to accept.',
        'password',
      );
    }
    return created.userId;
  }
}
