import type { DomainEvent } from '../../shared/decider';

/**
 * A login's password resets: `password-resets-<loginId>` (the registered account's id, or the
 * `usr_` id of a login made by accepting an invitation). The token is recorded twice, never
 * in clear: its SHA-256 (what a used link is checked against) and sealed (what the mail outbox
 * opens to put the link in the mail).
 */
export const PASSWORD_RESETS_STREAM_PREFIX = 'password-resets-';
export const passwordResetsStream = (loginId: string) => `${PASSWORD_RESETS_STREAM_PREFIX}${loginId}`;

export type PasswordResetRequested = DomainEvent<
  'PasswordResetRequested',
  {
    resetId: string;
    /** The account the login registered; null for a login made by accepting an invitation. */
    accountId: string | null;
    /** Absent on requests from before teams: the account's id. */
    loginId?: string;
    email: string;
    /** The client address the request came from (absent before teams). */
    ip?: string | null;
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
