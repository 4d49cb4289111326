import { Decider } from '../../shared/decider';
import { DomainError } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import type { Actor } from '../../shared/actor';
import type { AccountEvent, Environment, KeyScope, Registration } from './account.events';
import { memberIdFor } from './member-id';
import type { Role } from './roles';

export interface ApiKeyState {
  readonly keyId: string;
  readonly environment: Environment;
  readonly revoked: boolean;
}

export interface MemberState {
  readonly memberId: string;
  readonly email: string;
  readonly role: Role;
}

export interface InvitationState {
  readonly invitationId: string;
  readonly email: string;
  readonly role: Role;
  readonly tokenHash: string;
  readonly expiresAt: string;
  /** Accepted, canceled, or replaced by a newer invitation to the same e-mail. */
  readonly open: boolean;
}

export interface Account {
  readonly accountId: string | null;
  /** The owner's e-mail: where the account's mails go. */
  readonly email: string | null;
  readonly walletIds: Readonly<Record<Environment, string>> | null;
  readonly keys: ReadonlyMap<string, ApiKeyState>;
  readonly members: ReadonlyMap<string, MemberState>;
  readonly ownerId: string | null;
  readonly invitations: ReadonlyMap<string, InvitationState>;
}

export const initialState = (): Account => ({
  accountId: null,
  email: null,
  walletIds: null,
  keys: new Map(),
  members: new Map(),
  ownerId: null,
  invitations: new Map(),
});

const closeInvitation = (a: Account, invitationId: string): Account => {
  const invitation = a.invitations.get(invitationId);
  return invitation
    ? { ...a, invitations: new Map(a.invitations).set(invitationId, { ...invitation, open: false }) }
    : a;
};

export function evolve(a: Account, e: AccountEvent): Account {
  switch (e.type) {
    case 'AccountRegistered': {
      // The account's first user is its owner (API.md, "Teams").
      const ownerId = memberIdFor(e.data.accountId, e.data.email);
      return {
        ...a,
        accountId: e.data.accountId,
        email: e.data.email,
        walletIds: { TEST: e.data.testWalletId, LIVE: e.data.liveWalletId },
        ownerId,
        members: new Map(a.members).set(ownerId, { memberId: ownerId, email: e.data.email, role: 'owner' }),
      };
    }
    case 'ApiKeyMinted':
      return {
        ...a,
        keys: new Map(a.keys).set(e.data.keyId, {
          keyId: e.data.keyId,
          environment: e.data.environment,
          revoked: false,
        }),
      };
    case 'ApiKeyRevoked': {
      const key = a.keys.get(e.data.keyId);
      return key ? { ...a, keys: new Map(a.keys).set(key.keyId, { ...key, revoked: true }) } : a;
    }
    case 'MemberInvited': {
      // A newer invitation to the same e-mail replaces the older ones: only its link works.
      const invitations = new Map(a.invitations);
      for (const [id, invitation] of invitations)
        if (invitation.email === e.data.email && invitation.open)
          invitations.set(id, { ...invitation, open: false });
      invitations.set(e.data.invitationId, {
        invitationId: e.data.invitationId,
        email: e.data.email,
        role: e.data.role,
        tokenHash: e.data.tokenHash,
        expiresAt: e.data.expiresAt,
        open: true,
      });
      return { ...a, invitations };
    }
    case 'InvitationCanceled':
      return closeInvitation(a, e.data.invitationId);
    case 'MemberJoined':
      return {
        ...closeInvitation(a, e.data.invitationId),
        members: new Map(a.members).set(e.data.memberId, {
          memberId: e.data.memberId,
          email: e.data.email,
          role: e.data.role,
        }),
      };
    case 'MemberRemoved': {
      const members = new Map(a.members);
      members.delete(e.data.memberId);
      return { ...a, members };
    }
    case 'MemberRoleChanged': {
      const member = a.members.get(e.data.memberId);
      return member
        ? { ...a, members: new Map(a.members).set(member.memberId, { ...member, role: e.data.role }) }
        : a;
    }
    case 'OwnershipTransferred': {
      const members = new Map(a.members);
      const previous = members.get(e.data.previousOwnerId);
      if (previous) members.set(previous.memberId, { ...previous, role: 'admin' });
      members.set(e.data.memberId, { memberId: e.data.memberId, email: e.data.email, role: 'owner' });
      return { ...a, members, ownerId: e.data.memberId, email: e.data.email };
    }
    default:
      return a;
  }
}

export const accountDecider: Decider<Account, AccountEvent> = { initialState, evolve };

type Decision = Result<AccountEvent[], DomainError>;

const accountMissing = () => new DomainError('not_found', 'account_not_found', 'No such account');

export function register(a: Account, cmd: Registration & { now: Date }): Decision {
  if (a.accountId !== null) return ok([]);
  const { now, ...data } = cmd;
  return ok([{ type: 'AccountRegistered', data: { ...data, registeredAt: now.toISOString() } }]);
}

export function mintKey(
  a: Account,
  cmd: {
    keyId: string;
    name: string;
    environment: Environment;
    keyHash: string;
    suffix: string;
    scope: KeyScope;
    allowedIps: string[];
    actor: Actor;
    now: Date;
  },
): Decision {
  if (a.accountId === null) return err(accountMissing());
  if (a.keys.has(cmd.keyId)) return ok([]);
  const { now, ...data } = cmd;
  return ok([{ type: 'ApiKeyMinted', data: { ...data, mintedAt: now.toISOString() } }]);
}

/** Revoking twice is a no-op; revoking a key of another account is "not found". */
export function revokeKey(a: Account, cmd: { keyId: string; actor: Actor; now: Date }): Decision {
  const key = a.keys.get(cmd.keyId);
  if (a.accountId === null || !key)
    return err(new DomainError('not_found', 'resource_missing', 'No such API key', 'id'));
  if (key.revoked) return ok([]);
  return ok([
    {
      type: 'ApiKeyRevoked',
      data: { keyId: cmd.keyId, revokedAt: cmd.now.toISOString(), actor: cmd.actor },
    },
  ]);
}
