import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { addressBucket } from '../../shared/http/address-bucket';
import { RecentlyUsed } from '../../shared/recently-used';

export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/** Failures for one email from one address (a person mistyping, or one guesser). */
export const SIGN_IN_MAX_FAILURES = 5;
/** Failures for one email from any address (guessing one account from many addresses). */
export const SIGN_IN_MAX_ACCOUNT_FAILURES = 20;
/** Failures from one address for any email (password spraying across accounts). */
export const SIGN_IN_MAX_ADDRESS_FAILURES = 50;

/**
 * How many counters each kind keeps at most. An entry is a 24-character hash and two numbers
 * (about 150 bytes), so the three maps together stay under about 10 MB whatever is sent.
 * Past the bound the least recently failed counter is forgotten first.
 */
export const SIGN_IN_MAX_TRACKED = { pair: 25_000, account: 25_000, address: 10_000 } as const;

type Kind = keyof typeof SIGN_IN_MAX_TRACKED;
const LIMITS: Record<Kind, number> = {
  pair: SIGN_IN_MAX_FAILURES,
  account: SIGN_IN_MAX_ACCOUNT_FAILURES,
  address: SIGN_IN_MAX_ADDRESS_FAILURES,
};
const KINDS: readonly Kind[] = ['pair', 'account', 'address'];

/** Failures counted in a window that starts at the first of them. */
interface Counter {
  firstAt: number;
  count: number;
}

/** An attempt counted before the password is checked; `succeeded` un-counts it. */
export interface SignInAttempt {
  readonly keys: Readonly<Record<Kind, string>>;
}

/**
 * Sign-in throttling, in the process's memory. An attempt is counted as a failure *before* the
 * password is hashed (synchronously, so fifty concurrent guesses cannot all pass a check made
 * before any of them was counted) and un-counted when it turns out right. Three counters:
 * per email and address, per email from anywhere, per address for any email.
 *
 * Keys are SHA-256 hashes (truncated to 144 bits) of the normalised email and the address
 * bucket, so an entry has the same small size whatever a client sends, and the maps are bounded
 * (RecentlyUsed). A restart forgets the counts: that only ever gives an attacker a few more
 * guesses against scrypt-hashed passwords; the per-address token bucket bounds the rate on top.
 */
@Injectable()
export class SignInThrottle {
  private readonly counters: Record<Kind, RecentlyUsed<string, Counter>> = {
    pair: new RecentlyUsed(SIGN_IN_MAX_TRACKED.pair),
    account: new RecentlyUsed(SIGN_IN_MAX_TRACKED.account),
    address: new RecentlyUsed(SIGN_IN_MAX_TRACKED.address),
  };

  constructor(private readonly now: () => number = () => Date.now()) {}

  /**
   * Counts an attempt as a failure, or refuses it: the seconds until an attempt is allowed
   * again when any counter is full (nothing is counted then).
   */
  begin(email: string, address: string): SignInAttempt | { readonly retryAfterSeconds: number } {
    const account = hashed('account', email.trim().toLowerCase());
    const client = addressBucket(address); // an IPv6 client by its /64, like the token buckets
    const keys = {
      pair: hashed('pair', `${account}|${client}`),
      account,
      address: hashed('address', client),
    };
    const now = this.now();
    let retryAfterMs = 0;
    for (const kind of KINDS) {
      const counter = this.live(kind, keys[kind], now);
      if (counter && counter.count >= LIMITS[kind])
        retryAfterMs = Math.max(retryAfterMs, counter.firstAt + SIGN_IN_WINDOW_MS - now);
    }
    if (retryAfterMs > 0) return { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
    for (const kind of KINDS) {
      const counter = this.live(kind, keys[kind], now);
      if (counter) counter.count += 1;
      else this.counters[kind].set(keys[kind], { firstAt: now, count: 1 });
    }
    return { keys };
  }

  /** The password was right: the attempt was no failure, and the email's failures from this address are forgiven. */
  succeeded(attempt: SignInAttempt): void {
    this.counters.pair.delete(attempt.keys.pair);
    for (const kind of ['account', 'address'] as const) {
      const counter = this.counters[kind].peek(attempt.keys[kind]);
      if (counter && counter.count > 0) counter.count -= 1;
    }
  }

  /** How many counters are held (for tests and metrics: it stays within SIGN_IN_MAX_TRACKED). */
  get size(): number {
    return KINDS.reduce((sum, kind) => sum + this.counters[kind].size, 0);
  }

  private live(kind: Kind, key: string, now: number): Counter | undefined {
    const counter = this.counters[kind].get(key);
    if (counter && counter.firstAt + SIGN_IN_WINDOW_MS <= now) {
      this.counters[kind].delete(key);
      return undefined;
    }
    return counter;
  }
}

export const isThrottled = (
  attempt: SignInAttempt | { readonly retryAfterSeconds: number },
): attempt is { readonly retryAfterSeconds: number } => 'retryAfterSeconds' in attempt;

const hashed = (kind: Kind, value: string) =>
  createHash('sha256').update(kind).update('\0').update(value).digest('base64').slice(0, 24);
