import type { Decider, DomainEvent } from '../../shared/decider';

/**
 * The fraud guard against SMS pumping (toll fraud: verifications started to pay-per-SMS ranges):
 * one stream per wallet, so its caps are decided at the stream's expected revision, whatever
 * the number of processes and requests racing.
 */
export const VERIFICATION_GUARD_STREAM_PREFIX = 'verify-guard-';
export const verificationGuardStream = (walletId: string) => `${VERIFICATION_GUARD_STREAM_PREFIX}${walletId}`;

/** The caps count verifications started within the last hour. */
export const GUARD_WINDOW_MS = 60 * 60 * 1000;

export type GuardLimit = 'number' | 'range' | 'wallet';

export interface GuardLimits {
  /** Verifications per destination number per wallet per hour (API.md: 5). */
  readonly perNumber: number;
  /** Per number range: the same first 9 digits after the `+`. */
  readonly perRange: number;
  readonly perWallet: number;
  // Each is a count per hour; 0 means no cap.
}

export type VerificationAllowed = DomainEvent<
  'VerificationAllowed',
  { verificationId: string; to: string; at: string }
>;
/** A start refused by a cap: nothing was sent or charged. What the console lists and counts. */
export type VerificationRefused = DomainEvent<
  'VerificationRefused',
  { walletId: string; to: string; limit: GuardLimit; retryAfterSeconds: number; at: string }
>;
/** An allowed start whose SMS could not be sent after all: it counts no more. */
export type VerificationAllowanceReturned = DomainEvent<
  'VerificationAllowanceReturned',
  { verificationId: string; at: string }
>;
export type GuardEvent = VerificationAllowed | VerificationRefused | VerificationAllowanceReturned;

export const GUARD_EVENT_TYPES: readonly GuardEvent['type'][] = [
  'VerificationAllowed',
  'VerificationRefused',
  'VerificationAllowanceReturned',
];

interface Entry {
  readonly verificationId: string;
  readonly to: string;
  readonly range: string;
  /** Epoch ms. */
  readonly at: number;
}

/** The starts of the last hour (as of the newest one), oldest first. Plain JSON: snapshotted as is. */
export interface GuardState {
  readonly entries: readonly Entry[];
}

export const initialState = (): GuardState => ({ entries: [] });

/** A number's range: the first 9 digits after the `+` (`+233241234567` is in `233241234`). */
export const rangeOf = (to: string) => to.replace(/^\+/, '').slice(0, 9);

/** Drops what left the window before `now`: the state stays an hour of starts, however old the stream. */
const within = (entries: readonly Entry[], now: number) => {
  let first = 0;
  while (first < entries.length && entries[first].at <= now - GUARD_WINDOW_MS) first++;
  return first === 0 ? entries : entries.slice(first);
};

export function evolve(state: GuardState, event: GuardEvent): GuardState {
  switch (event.type) {
    case 'VerificationAllowed': {
      const at = Date.parse(event.data.at);
      const entry = {
        verificationId: event.data.verificationId,
        to: event.data.to,
        range: rangeOf(event.data.to),
        at,
      };
      return { entries: [...within(state.entries, at), entry] };
    }
    case 'VerificationAllowanceReturned':
      return { entries: state.entries.filter((e) => e.verificationId !== event.data.verificationId) };
    default:
      return state;
  }
}

export const guardDecider: Decider<GuardState, GuardEvent> = { initialState, evolve };

/**
 * Whether a verification may start now. Idempotent: a verification already allowed records
 * nothing. Past a cap (per number, then per range, then per wallet) it is refused, and the
 * refusal is recorded, saying when the oldest start that cap counts leaves the hour.
 */
export function admit(
  state: GuardState,
  cmd: { walletId: string; verificationId: string; to: string; now: Date; limits: GuardLimits },
): GuardEvent[] {
  if (state.entries.some((e) => e.verificationId === cmd.verificationId)) return [];
  const now = cmd.now.getTime();
  const counted = within(state.entries, now);
  const range = rangeOf(cmd.to);
  const caps: [GuardLimit, readonly Entry[], number][] = [
    ['number', counted.filter((e) => e.to === cmd.to), cmd.limits.perNumber],
    ['range', counted.filter((e) => e.range === range), cmd.limits.perRange],
    ['wallet', counted, cmd.limits.perWallet],
  ];
  for (const [limit, entries, cap] of caps) {
    if (cap === 0 || entries.length < cap) continue; // 0: no cap
    // The start whose leaving brings the count below the cap.
    const leaving = entries[Math.max(0, entries.length - cap)];
    const retryAfterSeconds = Math.max(1, Math.ceil((leaving.at + GUARD_WINDOW_MS - now) / 1000));
    return [
      {
        type: 'VerificationRefused',
        data: { walletId: cmd.walletId, to: cmd.to, limit, retryAfterSeconds, at: cmd.now.toISOString() },
      },
    ];
  }
  return [
    {
      type: 'VerificationAllowed',
      data: { verificationId: cmd.verificationId, to: cmd.to, at: cmd.now.toISOString() },
    },
  ];
}

/** Returns an allowance (its SMS was never sent); nothing when it is not counted (any more). */
export function returnAllowance(state: GuardState, cmd: { verificationId: string; now: Date }): GuardEvent[] {
  if (!state.entries.some((e) => e.verificationId === cmd.verificationId)) return [];
  return [
    {
      type: 'VerificationAllowanceReturned',
      data: { verificationId: cmd.verificationId, at: cmd.now.toISOString() },
    },
  ];
}
