import { CommandBus } from '@nestjs/cqrs';
import { AcceptInvitation } from '../../src/accounts/application/commands/accept-invitation.command';
import { InviteMember } from '../../src/accounts/application/commands/invite-member.command';
import { accountStream, type MemberInvited } from '../../src/accounts/domain/account.events';
import { memberIdFor } from '../../src/accounts/domain/member-id';
import type { Actor } from '../../src/shared/actor';
import { EVENT_STORE, type EventStore } from '../../src/shared/event-store/event-store.port';
import { randomToken } from '../../src/shared/ids';
import { SECRET_BOX, type SecretBox } from '../../src/shared/secret-box';
import type { Merchant } from './merchant';
import type { TestApp } from './test-app';

export interface TeamMember {
  readonly email: string;
  readonly password: string;
  readonly memberId: string;
  readonly role: string;
}

/** The merchant's owner as the actor of a use case (what a console form of theirs would name). */
export const ownerOf = (m: Merchant): Actor => ({
  type: 'member',
  id: memberIdFor(m.accountId, m.email),
  email: m.email,
  ip: '127.0.0.1',
});

/**
 * The link an invitation mail carries, as the outbox would render it: the token sealed in the
 * account's newest MemberInvited to this e-mail, opened with the service's key (tests only).
 */
export async function invitationToken(t: TestApp, accountId: string, email: string): Promise<string> {
  const events = await t.app.get<EventStore>(EVENT_STORE).readStream(accountStream(accountId));
  const invited = events
    .filter((e) => e.type === 'MemberInvited' && (e.data as MemberInvited['data']).email === email)
    .pop();
  if (!invited) throw new Error(`no invitation for ${email}`);
  return t.app.get<SecretBox>(SECRET_BOX).open((invited.data as MemberInvited['data']).sealedToken);
}

/** Invites `email` to the merchant's account with `role` (as its owner) and accepts with a new password. */
export async function addMember(
  t: TestApp,
  m: Merchant,
  role: string,
  email = `${role}-${randomToken(8).toLowerCase()}@example.com`,
  password = 'a member passphrase',
): Promise<TeamMember> {
  const commands = t.app.get(CommandBus);
  await commands.execute(new InviteMember(m.accountId, email, role, ownerOf(m)));
  const joined = await commands.execute(
    new AcceptInvitation(await invitationToken(t, m.accountId, email), password, '127.0.0.1'),
  );
  return { email, password, memberId: joined.memberId, role };
}
