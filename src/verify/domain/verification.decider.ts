import { timingSafeEqual } from 'node:crypto';
import { stateAfterAny, type Decider } from '../../shared/decider';
import { DomainError, notFound } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import {
  Environment,
  FINAL_VERIFICATION_EVENT_TYPES,
  VerificationEvent,
  VerificationStartedData,
} from './verification.events';

/** API.md's statuses: `pending` → `approved` | `failed` | `expired` | `canceled`; the last four are final. */
export type VerificationStatus = 'pending' | 'approved' | 'failed' | 'expired' | 'canceled';

/** At most this many SMS per verification (the first send and four resends). */
export const MAX_SENDS = 5;
/** A resend waits this long after the previous send. */
export const RESEND_AFTER_MS = 30_000;

export type Verification = Omit<VerificationStartedData, 'codeHash' | 'messageId' | 'sealedTestCode'> & {
  /** The status as recorded; `statusAt` adds the clock (pending past `expiresAt` reads expired). */
  readonly status: VerificationStatus;
  /** HMAC of the code of the latest send: the only one that works. */
  readonly codeHash: string;
  /** The SMS of each send, oldest first. */
  readonly messageIds: readonly string[];
  readonly sends: number;
  readonly lastSentAt: string;
  readonly sealedTestCode: string | null;
  /** Checks made, the approving one included. */
  readonly checks: number;
  readonly approvedAt: string | null;
  /** When it became final (as recorded), null while pending. */
  readonly endedAt: string | null;
  /** Time of the latest recorded change. */
  readonly updatedAt: string;
};

export type VerificationState = { readonly status: 'none' } | Verification;

export const initialState = (): VerificationState => ({ status: 'none' });

export const isVerification = (state: VerificationState): state is Verification => state.status !== 'none';

const isFinal = (status: VerificationStatus) => status !== 'pending';

function ended(v: Verification, status: VerificationStatus, at: string): Verification {
  return { ...v, status, endedAt: at, updatedAt: at };
}

/** Folds one fact in. Never refuses; a final state absorbs everything after it. */
export function evolve(state: VerificationState, event: VerificationEvent): VerificationState {
  if (state.status === 'none') {
    if (event.type !== 'VerificationStarted') return state;
    const { codeHash, messageId, sealedTestCode, ...started } = event.data;
    return {
      ...started,
      status: 'pending',
      codeHash,
      messageIds: [messageId],
      sends: 1,
      lastSentAt: started.createdAt,
      sealedTestCode: sealedTestCode ?? null,
      checks: 0,
      approvedAt: null,
      endedAt: null,
      updatedAt: started.createdAt,
    };
  }
  if (isFinal(state.status)) return state;
  const v = state;
  switch (event.type) {
    case 'VerificationCodeResent':
      return {
        ...v,
        codeHash: event.data.codeHash,
        messageIds: [...v.messageIds, event.data.messageId],
        sends: event.data.send,
        lastSentAt: event.data.at,
        expiresAt: event.data.expiresAt,
        sealedTestCode: event.data.sealedTestCode ?? null,
        updatedAt: event.data.at,
      };
    case 'VerificationCheckFailed':
      return { ...v, checks: v.checks + 1, updatedAt: event.data.at };
    case 'VerificationApproved':
      return { ...ended(v, 'approved', event.data.at), checks: v.checks + 1, approvedAt: event.data.at };
    case 'VerificationFailed':
      return { ...ended(v, 'failed', event.data.at), checks: v.checks + 1 };
    case 'VerificationExpired':
      return ended(v, 'expired', event.data.at);
    case 'VerificationCanceled':
      return ended(v, 'canceled', event.data.at);
    default:
      return v;
  }
}

export const verificationDecider: Decider<VerificationState, VerificationEvent> = { initialState, evolve };

/** True once `now` is at or past the verification's expiry. */
export const isPastExpiry = (v: Pick<Verification, 'expiresAt'>, now: Date) =>
  now.getTime() >= Date.parse(v.expiresAt);

/** The status a read answers: the recorded one, or `expired` for a pending one past `expiresAt`. */
export function statusAt(v: Pick<Verification, 'status' | 'expiresAt'>, now: Date): VerificationStatus {
  return v.status === 'pending' && isPastExpiry(v, now) ? 'expired' : v.status;
}

export const checksLeft = (v: Pick<Verification, 'maxChecks' | 'checks'>) =>
  Math.max(0, v.maxChecks - v.checks);

/** A refusal that says when to try again (429 with Retry-After). */
export class RetryLater extends DomainError {
  constructor(
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limit', code, message);
  }
}

type Decision = Result<VerificationEvent[], DomainError>;

/** Whose verification a command may touch: one wallet, in its environment. */
export interface Scope {
  readonly walletId: string;
  readonly environment: Environment;
}

/** The verification when it is this scope's; anything else is answered like an unknown id. */
function owned(state: VerificationState, scope: Scope): Result<Verification, DomainError> {
  if (!isVerification(state) || state.walletId !== scope.walletId || state.environment !== scope.environment)
    return err(notFound('verification', 'id'));
  return ok(state);
}

const closed = (status: VerificationStatus) =>
  new DomainError(
    'conflict',
    'verification_closed',
    `The verification is ${status}; it takes no more actions`,
  );

/** Starts the stream; a verification already started records nothing again. */
export function start(state: VerificationState, cmd: VerificationStartedData): Decision {
  if (state.status === 'none') return ok([{ type: 'VerificationStarted', data: cmd }]);
  return ok([]);
}

/** Two hashes compared in constant time (a wrong guess takes as long, however much of it was right). */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * A check of a code (its keyed hash, computed for the current send by the caller). A final
 * verification is closed (409), except that one past its expiry answers `expired`, recorded the
 * first time if the expiry process has not yet: so whether it ran does not change the answer.
 * Pending and in time: the right code approves it; a wrong one uses a check, and the last one
 * allowed fails it.
 */
export function check(
  state: VerificationState,
  cmd: { scope: Scope; codeHash: string; now: Date },
): Decision {
  const found = owned(state, cmd.scope);
  if (!found.ok) return found;
  const v = found.value;
  const at = cmd.now.toISOString();
  if (v.status === 'expired') return ok([]);
  if (isFinal(v.status)) return err(closed(v.status));
  if (isPastExpiry(v, cmd.now))
    return ok([{ type: 'VerificationExpired', data: { expiredAt: v.expiresAt, at } }]);
  if (sameHash(cmd.codeHash, v.codeHash)) return ok([{ type: 'VerificationApproved', data: { at } }]);
  const left = checksLeft(v) - 1;
  if (left <= 0) return ok([{ type: 'VerificationFailed', data: { at } }]);
  return ok([{ type: 'VerificationCheckFailed', data: { checksLeft: left, at } }]);
}

/**
 * A new code by a new SMS: only while pending and in time (else 409 `verification_closed`), at
 * most MAX_SENDS sends (409 `max_sends_reached`), RESEND_AFTER_MS after the previous send (429
 * `resend_too_soon`). The expiry starts again from now; checks already used stay used.
 */
export function resend(
  state: VerificationState,
  cmd: {
    scope: Scope;
    codeHash: string;
    messageId: string;
    credits: number;
    now: Date;
    sealedTestCode?: string;
  },
): Decision {
  const found = owned(state, cmd.scope);
  if (!found.ok) return found;
  const v = found.value;
  const status = statusAt(v, cmd.now);
  if (status !== 'pending') return err(closed(status));
  if (v.sends >= MAX_SENDS)
    return err(
      new DomainError('conflict', 'max_sends_reached', `A verification is sent at most ${MAX_SENDS} times`),
    );
  const wait = Date.parse(v.lastSentAt) + RESEND_AFTER_MS - cmd.now.getTime();
  if (wait > 0)
    return err(
      new RetryLater(
        'resend_too_soon',
        `A code can be sent again ${RESEND_AFTER_MS / 1000} seconds after the previous one`,
        Math.ceil(wait / 1000),
      ),
    );
  const at = cmd.now.toISOString();
  return ok([
    {
      type: 'VerificationCodeResent',
      data: {
        send: v.sends + 1,
        codeHash: cmd.codeHash,
        messageId: cmd.messageId,
        credits: cmd.credits,
        expiresAt: new Date(cmd.now.getTime() + v.expiresInSeconds * 1000).toISOString(),
        at,
        ...(cmd.sealedTestCode ? { sealedTestCode: cmd.sealedTestCode } : {}),
      },
    },
  ]);
}

/** The merchant's cancel: only a pending verification in time (else 409 `verification_closed`). */
export function cancel(state: VerificationState, cmd: { scope: Scope; now: Date }): Decision {
  const found = owned(state, cmd.scope);
  if (!found.ok) return found;
  const status = statusAt(found.value, cmd.now);
  if (status !== 'pending') return err(closed(status));
  return ok([{ type: 'VerificationCanceled', data: { at: cmd.now.toISOString() } }]);
}

/** The expiry process: a pending verification at or past `expiresAt` is recorded expired; else nothing. */
export function expire(state: VerificationState, now: Date): Decision {
  if (!isVerification(state) || state.status !== 'pending' || !isPastExpiry(state, now)) return ok([]);
  return ok([{ type: 'VerificationExpired', data: { expiredAt: state.expiresAt, at: now.toISOString() } }]);
}

const FINAL_EVENTS: ReadonlySet<VerificationEvent['type']> = new Set(FINAL_VERIFICATION_EVENT_TYPES);

/** The verification a recorded decision ended (see stateAfterAny), else null: what counts it once. */
export function endedBy(
  recorded: Result<
    { readonly state: VerificationState; readonly events: readonly VerificationEvent[] },
    unknown
  >,
): Verification | null {
  const state = stateAfterAny(recorded, FINAL_EVENTS);
  return state && isVerification(state) ? state : null;
}
