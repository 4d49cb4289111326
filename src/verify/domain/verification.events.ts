import type { DomainEvent } from '../../shared/decider';

export type Environment = 'TEST' | 'LIVE';

/** Stream of one verification aggregate. */
export const VERIFICATION_STREAM_PREFIX = 'verification-';
export const verificationStream = (verificationId: string) =>
  `${VERIFICATION_STREAM_PREFIX}${verificationId}`;

// Event data are type aliases (not interfaces) so they stay assignable to plain JSON records.
// Every time is an ISO-8601 UTC string. No event ever holds a code in clear: `codeHash` is a
// keyed hash (HMAC-SHA256, see OneTimeCodes), and a TEST code kept for replays is sealed.

export type VerificationStartedData = {
  readonly verificationId: string;
  readonly walletId: string;
  readonly accountId: string;
  readonly environment: Environment;
  readonly to: string;
  readonly senderId: string;
  /** The merchant's text with `{{code}}` in it: no code. */
  readonly template: string;
  readonly codeLength: number;
  readonly maxChecks: number;
  readonly expiresInSeconds: number;
  /** HMAC of the first code (send 1). */
  readonly codeHash: string;
  /** The SMS carrying the code (send 1), an ordinary message of messaging's. */
  readonly messageId: string;
  /** Credits its SMS reserves; spent only once it is DELIVERED. */
  readonly credits: number;
  readonly expiresAt: string;
  readonly createdAt: string;
  readonly idempotencyKey: string | null;
  /** The request as far as its Idempotency-Key is concerned (null without a key). */
  readonly requestHash: string | null;
  /** TEST only: the code sealed with the SecretBox, so a replayed answer can carry `test_code` again. */
  readonly sealedTestCode?: string;
};

/** A new code by a new SMS: the previous code stops working and the expiry starts again. */
export type VerificationCodeResentData = {
  /** Which send this is: 2 for the first resend. */
  readonly send: number;
  readonly codeHash: string;
  readonly messageId: string;
  readonly credits: number;
  readonly expiresAt: string;
  readonly at: string;
  readonly sealedTestCode?: string;
};

/** A wrong code, checks left. */
export type VerificationCheckFailedData = { readonly checksLeft: number; readonly at: string };
/** The right code in time. */
export type VerificationApprovedData = { readonly at: string };
/** The last check allowed was wrong. */
export type VerificationFailedData = { readonly at: string };
/** Past `expiresAt` while pending, recorded by the expiry process (or the check that found it). */
export type VerificationExpiredData = { readonly expiredAt: string; readonly at: string };
/** Ended by the merchant before an answer: its code stops working. */
export type VerificationCanceledData = { readonly at: string };

export type VerificationEvent =
  | DomainEvent<'VerificationStarted', VerificationStartedData>
  | DomainEvent<'VerificationCodeResent', VerificationCodeResentData>
  | DomainEvent<'VerificationCheckFailed', VerificationCheckFailedData>
  | DomainEvent<'VerificationApproved', VerificationApprovedData>
  | DomainEvent<'VerificationFailed', VerificationFailedData>
  | DomainEvent<'VerificationExpired', VerificationExpiredData>
  | DomainEvent<'VerificationCanceled', VerificationCanceledData>;

export type VerificationEventType = VerificationEvent['type'];

export const VERIFICATION_EVENT_TYPES: readonly VerificationEventType[] = [
  'VerificationStarted',
  'VerificationCodeResent',
  'VerificationCheckFailed',
  'VerificationApproved',
  'VerificationFailed',
  'VerificationExpired',
  'VerificationCanceled',
];

/** The events that end a verification (nothing follows them). */
export const FINAL_VERIFICATION_EVENT_TYPES: readonly VerificationEventType[] = [
  'VerificationApproved',
  'VerificationFailed',
  'VerificationExpired',
  'VerificationCanceled',
];
