import type { DomainEvent } from '../../shared/decider';

/**
 * An account's password resets: `password-resets-<accountId>`. The token is recorded twice, never
 * in clear: its SHA-256 (what a used link is checked against) and sealed (what the mail outbox
 * opens to put the link in the mail).
 */
export const PASSWORD_RESETS_STREAM_PREFIX = 'password-resets-';
export const passwordResetsStream = (accountId: string) => `${PASSWORD_RESETS_STREAM_PREFIX}${accountId}`;

export type PasswordResetRequested = DomainEvent<
  'PasswordResetRequested',
  {
    resetId: string;
    accountId: string;
    email: string;
    tokenHash: string;
    sealedToken: string;
    requestedAt: string;
    expiresAt: string;
  }
>;
export type PasswordResetCompleted = DomainEvent<
  'PasswordResetCompleted',
  { resetId: string; completedAt: string }
>;

export type PasswordResetEvent = PasswordResetRequested | PasswordResetCompleted;
