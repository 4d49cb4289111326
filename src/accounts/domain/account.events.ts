import type { DomainEvent } from '../../shared/decider';

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
  }
>;
export type ApiKeyRevoked = DomainEvent<'ApiKeyRevoked', { keyId: string; revokedAt: string }>;

/** A new password (a reset link used): only its hash, as at registration. */
export type PasswordChanged = DomainEvent<'PasswordChanged', { passwordHash: string; changedAt: string }>;

export type AccountEvent = AccountRegistered | ApiKeyMinted | ApiKeyRevoked | PasswordChanged;

export const accountStream = (accountId: string) => `account-${accountId}`;
export const emailStream = (emailHash: string) => `email-${emailHash}`;
