import type { DomainEvent } from '../../shared/decider';

/**
 * A wrong password for an e-mail that has a login, from a client address: the audit log shows it to
 * the accounts the login belongs to. Nothing is recorded for an e-mail without a login (it belongs
 * to no account), nor the password tried.
 */
export const SIGN_IN_FAILURES_STREAM_PREFIX = 'sign-in-failures-';
export const signInFailuresStream = (loginId: string) => `${SIGN_IN_FAILURES_STREAM_PREFIX}${loginId}`;

export type SignInFailed = DomainEvent<
  'SignInFailed',
  { loginId: string; email: string; ip: string | null; failedAt: string }
>;
