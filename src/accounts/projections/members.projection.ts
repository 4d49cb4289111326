import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import type { AccountEvent } from '../domain/account.events';
import { memberIdFor } from '../domain/member-id';
import type { Role } from '../domain/roles';

/** Members by id, listed per account. */
export const ACCOUNT_MEMBERS = 'account-members';
/** The accounts a login belongs to, listed per e-mail (sign-in, the account switcher). */
export const LOGIN_MEMBERSHIPS = 'login-memberships';
/** Invitations by id, listed per account. */
export const ACCOUNT_INVITATIONS = 'account-invitations';

export interface MemberView {
  readonly id: string;
  readonly object: 'member';
  readonly accountId: string;
  readonly email: string;
  readonly role: Role;
  readonly joined_at: string;
}

export interface MembershipView {
  readonly accountId: string;
  readonly memberId: string;
  readonly email: string;
  readonly role: Role;
  readonly joined_at: string;
}

export interface InvitationView {
  readonly id: string;
  readonly object: 'invitation';
  readonly accountId: string;
  readonly email: string;
  readonly role: Role;
  readonly invited_by: string;
  readonly invited_at: string;
  readonly expires_at: string;
  readonly status: 'pending' | 'accepted' | 'canceled' | 'replaced';
}

const membershipId = (email: string, accountId: string) => `${email}|${accountId}`;

function putMember(view: ProjectionView, member: MemberView): void {
  view.put(ACCOUNT_MEMBERS, member.id, member, {
    partition: member.accountId,
    sort: `${member.joined_at}|${member.id}`,
  });
  view.put(
    LOGIN_MEMBERSHIPS,
    membershipId(member.email, member.accountId),
    {
      accountId: member.accountId,
      memberId: member.id,
      email: member.email,
      role: member.role,
      joined_at: member.joined_at,
    } satisfies MembershipView,
    { partition: member.email, sort: `${member.joined_at}|${member.accountId}` },
  );
}

async function setInvitationStatus(view: ProjectionView, id: string, status: InvitationView['status']) {
  const invitation = await view.get<InvitationView>(ACCOUNT_INVITATIONS, id);
  if (!invitation || invitation.status !== 'pending') return;
  view.put(ACCOUNT_INVITATIONS, id, { ...invitation, status } satisfies InvitationView, {
    partition: invitation.accountId,
    sort: `${invitation.invited_at}|${invitation.id}`,
  });
}

/**
 * Who belongs to which account with which role, and the invitations still open: what the console's
 * guard reads on every page (the role), sign-in (which accounts a login may enter) and the Members
 * page. A projection of its own, so a store from before teams fills it from the start of the log.
 */
export const membersProjection: Projection = {
  name: 'members',
  collections: [ACCOUNT_MEMBERS, LOGIN_MEMBERSHIPS, ACCOUNT_INVITATIONS],
  filter: { streamPrefixes: ['account-'] },
  async apply(recorded: RecordedEvent, view: ProjectionView) {
    const event = recorded as unknown as AccountEvent;
    const accountId = recorded.streamId.slice('account-'.length);
    switch (event.type) {
      case 'AccountRegistered':
        putMember(view, {
          id: memberIdFor(accountId, event.data.email),
          object: 'member',
          accountId,
          email: event.data.email,
          role: 'owner',
          joined_at: event.data.registeredAt,
        });
        return;
      case 'MemberInvited': {
        const invitation: InvitationView = {
          id: event.data.invitationId,
          object: 'invitation',
          accountId,
          email: event.data.email,
          role: event.data.role,
          invited_by: event.data.actor.type === 'member' ? event.data.actor.email : 'operator',
          invited_at: event.data.invitedAt,
          expires_at: event.data.expiresAt,
          status: 'pending',
        };
        // A newer invitation to the same e-mail replaces the older ones (the decider's rule).
        const open = await view.get<{ id: string }>(
          ACCOUNT_INVITATIONS,
          `open|${accountId}|${event.data.email}`,
        );
        if (open) await setInvitationStatus(view, open.id, 'replaced');
        view.put(ACCOUNT_INVITATIONS, `open|${accountId}|${event.data.email}`, { id: invitation.id });
        view.put(ACCOUNT_INVITATIONS, invitation.id, invitation, {
          partition: accountId,
          sort: `${invitation.invited_at}|${invitation.id}`,
        });
        return;
      }
      case 'InvitationCanceled':
        return setInvitationStatus(view, event.data.invitationId, 'canceled');
      case 'MemberJoined':
        await setInvitationStatus(view, event.data.invitationId, 'accepted');
        putMember(view, {
          id: event.data.memberId,
          object: 'member',
          accountId,
          email: event.data.email,
          role: event.data.role,
          joined_at: event.data.joinedAt,
        });
        return;
      case 'MemberRemoved':
        view.delete(ACCOUNT_MEMBERS, event.data.memberId);
        view.delete(LOGIN_MEMBERSHIPS, membershipId(event.data.email, accountId));
        return;
      case 'MemberRoleChanged':
        return setRole(view, event.data.memberId, event.data.role);
      case 'OwnershipTransferred':
        await setRole(view, event.data.previousOwnerId, 'admin');
        return setRole(view, event.data.memberId, 'owner');
    }
  },
};

async function setRole(view: ProjectionView, memberId: string, role: Role): Promise<void> {
  const member = await view.get<MemberView>(ACCOUNT_MEMBERS, memberId);
  if (member) putMember(view, { ...member, role });
}
