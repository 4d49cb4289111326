import type { Actor } from '../../shared/actor';
import { DomainError, invalid, notFound } from '../../shared/domain-error';
import { err, ok, type Result } from '../../shared/result';
import type { Account, MemberState } from './account.decider';
import type { AccountEvent } from './account.events';
import { memberIdFor } from './member-id';
import { isRole, type Permission, PERMISSION_ACTIONS, type Role, roleCan } from './roles';

/** An invitation's link works this long (API.md, "Teams"). */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Roles an invitation or a role change may give: the owner is made by handing the account over. */
export const GRANTABLE_ROLES: readonly Role[] = ['admin', 'developer', 'sender', 'billing', 'viewer'];

type Decision = Result<AccountEvent[], DomainError>;

export const permissionDenied = (message: string) =>
  new DomainError('forbidden', 'permission_denied', message);

const accountMissing = () => new DomainError('not_found', 'account_not_found', 'No such account');

/**
 * The member acting, when they may do what `permission` allows: the account's own rules, checked
 * here as well as by the console's guard, so no entry point can skip them.
 */
function acting(a: Account, actor: Actor, permission: Permission): Result<MemberState, DomainError> {
  const member = actor.type === 'member' ? a.members.get(actor.id) : undefined;
  if (!member) return err(permissionDenied('Only a member of this account may do that'));
  if (!roleCan(member.role, permission))
    return err(permissionDenied(`Your role (${member.role}) cannot ${PERMISSION_ACTIONS[permission]}`));
  return ok(member);
}

function grantable(role: unknown): Result<Role, DomainError> {
  if (isRole(role) && GRANTABLE_ROLES.includes(role)) return ok(role);
  return err(
    invalid(
      'invalid_role',
      `role must be one of ${GRANTABLE_ROLES.join(', ')} (the owner hands the account over instead)`,
      'role',
    ),
  );
}

const memberMissing = () => notFound('member', 'id');

export function invite(
  a: Account,
  cmd: {
    invitationId: string;
    email: string;
    role: unknown;
    tokenHash: string;
    sealedToken: string;
    actor: Actor;
    now: Date;
  },
): Decision {
  if (a.accountId === null) return err(accountMissing());
  const by = acting(a, cmd.actor, 'manage_members');
  if (!by.ok) return by;
  const role = grantable(cmd.role);
  if (!role.ok) return role;
  if ([...a.members.values()].some((m) => m.email === cmd.email))
    return err(new DomainError('conflict', 'member_exists', `${cmd.email} is already a member`, 'email'));
  return ok([
    {
      type: 'MemberInvited',
      data: {
        invitationId: cmd.invitationId,
        email: cmd.email,
        role: role.value,
        tokenHash: cmd.tokenHash,
        sealedToken: cmd.sealedToken,
        invitedAt: cmd.now.toISOString(),
        expiresAt: new Date(cmd.now.getTime() + INVITATION_TTL_MS).toISOString(),
        actor: cmd.actor,
      },
    },
  ]);
}

export function cancelInvitation(
  a: Account,
  cmd: { invitationId: string; actor: Actor; now: Date },
): Decision {
  const by = acting(a, cmd.actor, 'manage_members');
  if (!by.ok) return by;
  const invitation = a.invitations.get(cmd.invitationId);
  if (!invitation) return err(notFound('invitation', 'id'));
  if (!invitation.open) return ok([]);
  return ok([
    {
      type: 'InvitationCanceled',
      data: {
        invitationId: invitation.invitationId,
        email: invitation.email,
        canceledAt: cmd.now.toISOString(),
        actor: cmd.actor,
      },
    },
  ]);
}

export const invitationInvalid = () =>
  invalid(
    'invitation_invalid',
    'This invitation is no longer valid: ask the account’s owner or an admin for a new one.',
    'token',
  );

/** The open, unexpired invitation whose token hashes to `tokenHash`. */
export function openInvitation(a: Account, tokenHash: string, now: Date) {
  const invitation = [...a.invitations.values()].find((i) => i.tokenHash === tokenHash);
  if (!invitation || !invitation.open || Date.parse(invitation.expiresAt) <= now.getTime()) return null;
  return invitation;
}

/** Accepts the invitation for the login `loginId`, which the caller has authenticated (or just made). */
export function acceptInvitation(
  a: Account,
  cmd: { tokenHash: string; loginId: string; ip: string | null; now: Date },
): Decision {
  if (a.accountId === null) return err(invitationInvalid());
  const invitation = openInvitation(a, cmd.tokenHash, cmd.now);
  if (!invitation) return err(invitationInvalid());
  const memberId = memberIdFor(a.accountId, invitation.email);
  if (a.members.has(memberId)) return ok([]);
  return ok([
    {
      type: 'MemberJoined',
      data: {
        memberId,
        email: invitation.email,
        role: invitation.role,
        invitationId: invitation.invitationId,
        loginId: cmd.loginId,
        joinedAt: cmd.now.toISOString(),
        actor: { type: 'member', id: memberId, email: invitation.email, ip: cmd.ip },
      },
    },
  ]);
}

/**
 * The member a use case acts on, when the actor may (`manage_members`) and it is not the owner:
 * nobody removes or demotes the owner, who hands the account over instead (`ownerRefusal`).
 */
function managedMember(
  a: Account,
  cmd: { memberId: string; actor: Actor },
  ownerRefusal: DomainError,
): Result<MemberState, DomainError> {
  const by = acting(a, cmd.actor, 'manage_members');
  if (!by.ok) return by;
  const member = a.members.get(cmd.memberId);
  if (!member) return err(memberMissing());
  if (member.role === 'owner') return err(ownerRefusal);
  return ok(member);
}

export function removeMember(a: Account, cmd: { memberId: string; actor: Actor; now: Date }): Decision {
  const managed = managedMember(
    a,
    cmd,
    new DomainError(
      'forbidden',
      'owner_cannot_be_removed',
      'The owner cannot be removed: the owner hands the account over to another member first.',
    ),
  );
  if (!managed.ok) return managed;
  const member = managed.value;
  return ok([
    {
      type: 'MemberRemoved',
      data: {
        memberId: member.memberId,
        email: member.email,
        removedAt: cmd.now.toISOString(),
        actor: cmd.actor,
      },
    },
  ]);
}

export function changeRole(
  a: Account,
  cmd: { memberId: string; role: unknown; actor: Actor; now: Date },
): Decision {
  const managed = managedMember(
    a,
    cmd,
    new DomainError(
      'forbidden',
      'owner_role_fixed',
      'The owner’s role cannot be changed: the owner hands the account over to another member instead.',
    ),
  );
  if (!managed.ok) return managed;
  const member = managed.value;
  const role = grantable(cmd.role);
  if (!role.ok) return role;
  if (role.value === member.role) return ok([]);
  return ok([
    {
      type: 'MemberRoleChanged',
      data: {
        memberId: member.memberId,
        email: member.email,
        role: role.value,
        previousRole: member.role,
        changedAt: cmd.now.toISOString(),
        actor: cmd.actor,
      },
    },
  ]);
}

export function transferOwnership(a: Account, cmd: { memberId: string; actor: Actor; now: Date }): Decision {
  const by = acting(a, cmd.actor, 'own');
  if (!by.ok) return by;
  const member = a.members.get(cmd.memberId);
  if (!member) return err(memberMissing());
  if (member.role === 'owner') return ok([]);
  return ok([
    {
      type: 'OwnershipTransferred',
      data: {
        memberId: member.memberId,
        email: member.email,
        previousOwnerId: by.value.memberId,
        previousOwnerEmail: by.value.email,
        transferredAt: cmd.now.toISOString(),
        actor: cmd.actor,
      },
    },
  ]);
}
