import type { Actor } from '../../shared/actor';
import type { DomainEvent } from '../../shared/decider';
import type { Role } from './roles';

export type Environment = 'TEST' | 'LIVE';

/**
 * Claims an email for one account: the stream `email-<hash>` can be created only once, so two
 * racing sign-ups cannot both win. It carries the whole registration, so an account whose
 * process died right after the claim is still provisioned from the log.
 */
export type EmailClaimed = DomainEvent<'EmailClaimed', Registration & { claimedAt: string }>;

export interface Registration {
  readonly accountId: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly testWalletId: string;
  readonly liveWalletId: string;
}

export type AccountRegistered = DomainEvent<'AccountRegistered', Registration & { registeredAt: string }>;
/** What a key may do (API.md, "Teams"): everything, sends and reading them, or reading only. */
export type KeyScope = 'full' | 'send' | 'read';

export type ApiKeyMinted = DomainEvent<
  'ApiKeyMinted',
  {
    keyId: string;
    name: string;
    environment: Environment;
    /** SHA-256 of the full key, hex. The key itself is never recorded. */
    keyHash: string;
    /** The last characters, so people can tell their keys apart. */
    suffix: string;
    mintedAt: string;
    /** Absent on keys minted before scopes: `full`. */
    scope?: KeyScope;
    /** Addresses and CIDRs the key is accepted from; absent or empty: anywhere. */
    allowedIps?: string[];
    actor?: Actor;
  }
>;
export type ApiKeyRevoked = DomainEvent<'ApiKeyRevoked', { keyId: string; revokedAt: string; actor?: Actor }>;

/**
 * A new password (a reset link used): only its hash, as at registration. On `account-<id>` for the
 * login that registered the account, on `email-<hash>` for a login made by accepting an
 * invitation. `email` names the login (absent on events from before teams: the account's own).
 */
export type PasswordChanged = DomainEvent<
  'PasswordChanged',
  { passwordHash: string; changedAt: string; email?: string }
>;

/**
 * A person asked to join the account (API.md, "Teams"): the link's token is recorded as its
 * SHA-256 (what accepting checks) and sealed for the mail, never in clear.
 */
export type MemberInvited = DomainEvent<
  'MemberInvited',
  {
    invitationId: string;
    email: string;
    role: Role;
    tokenHash: string;
    sealedToken: string;
    invitedAt: string;
    expiresAt: string;
    actor: Actor;
  }
>;
export type InvitationCanceled = DomainEvent<
  'InvitationCanceled',
  { invitationId: string; email: string; canceledAt: string; actor: Actor }
>;
/** The invitation was accepted by the login `loginId` (made then, or an existing one). */
export type MemberJoined = DomainEvent<
  'MemberJoined',
  {
    memberId: string;
    email: string;
    role: Role;
    invitationId: string;
    loginId: string;
    joinedAt: string;
    actor: Actor;
  }
>;
export type MemberRemoved = DomainEvent<
  'MemberRemoved',
  { memberId: string; email: string; removedAt: string; actor: Actor }
>;
export type MemberRoleChanged = DomainEvent<
  'MemberRoleChanged',
  { memberId: string; email: string; role: Role; previousRole: Role; changedAt: string; actor: Actor }
>;
/** The account's one owner is now `memberId`; the previous owner stays on as an admin. */
export type OwnershipTransferred = DomainEvent<
  'OwnershipTransferred',
  {
    memberId: string;
    email: string;
    previousOwnerId: string;
    previousOwnerEmail: string;
    transferredAt: string;
    actor: Actor;
  }
>;

export type MemberEvent =
  | MemberInvited
  | InvitationCanceled
  | MemberJoined
  | MemberRemoved
  | MemberRoleChanged
  | OwnershipTransferred;

export type AccountEvent = AccountRegistered | ApiKeyMinted | ApiKeyRevoked | PasswordChanged | MemberEvent;

/**
 * A login made by accepting an invitation, by someone whose e-mail had none: it claims the email's
 * stream exactly like a sign-up (so the address stays one person's) but opens no account.
 */
export type LoginCreated = DomainEvent<
  'LoginCreated',
  { userId: string; email: string; passwordHash: string; createdAt: string }
>;

export const ACCOUNT_STREAM_PREFIX = 'account-';
export const accountStream = (accountId: string) => `${ACCOUNT_STREAM_PREFIX}${accountId}`;
export const emailStream = (emailHash: string) => `email-${emailHash}`;
