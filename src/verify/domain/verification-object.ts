import { checksLeft, statusAt, Verification, VerificationStatus } from './verification.decider';
import type { Environment } from './verification.events';

/** API.md's verification object. It never carries the code (a TEST answer adds `test_code` itself). */
export interface ApiVerification {
  readonly object: 'verification';
  readonly id: string;
  readonly to: string;
  readonly status: VerificationStatus;
  readonly environment: Environment;
  readonly expires_at: string;
  readonly checks_left: number;
  readonly sends: number;
  /** The SMS of the latest send, readable in /v1/messages with its code masked. */
  readonly message_id: string;
  readonly created_at: string;
}

/** What the object is made of: the aggregate's state and the read model's document both have it. */
export type VerificationFacts = Pick<
  Verification,
  | 'to'
  | 'status'
  | 'environment'
  | 'expiresAt'
  | 'maxChecks'
  | 'checks'
  | 'sends'
  | 'messageIds'
  | 'createdAt'
> & { readonly id: string };

/** The verification as it reads at `now`: a pending one past its expiry reads `expired` at once. */
export function verificationObject(v: VerificationFacts, now: Date): ApiVerification {
  return {
    object: 'verification',
    id: v.id,
    to: v.to,
    status: statusAt(v, now),
    environment: v.environment,
    expires_at: v.expiresAt,
    checks_left: checksLeft(v),
    sends: v.sends,
    message_id: v.messageIds[v.messageIds.length - 1],
    created_at: v.createdAt,
  };
}

export const toApiVerification = (v: Verification, now: Date) =>
  verificationObject({ ...v, id: v.verificationId }, now);

/** The SMS of a verification's n-th send: derived, so running a send again never sends twice. */
export const verificationMessageId = (verificationId: string, send: number) =>
  `msg_${verificationId.slice('ver_'.length)}${send}`;
