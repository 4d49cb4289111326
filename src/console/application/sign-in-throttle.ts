import { Injectable } from '@nestjs/common';

export const SIGN_IN_MAX_FAILURES = 5;
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

/**
 * Refuses sign-in for an email from one address after 5 failures within 15 minutes, until
 * the oldest of them leaves the window. Kept in the process's memory: a restart forgets it,
 * which only ever gives an attacker 5 more guesses against scrypt-hashed passwords; the
 * per-address token bucket (RateLimiter) bounds the rate on top.
 */
@Injectable()
export class SignInThrottle {
  private readonly failures = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** Seconds until a new attempt is allowed; 0 when allowed now. */
  retryAfterSeconds(email: string, address: string): number {
    const recent = this.recent(this.key(email, address));
    if (recent.length < SIGN_IN_MAX_FAILURES) return 0;
    const oldest = recent[recent.length - SIGN_IN_MAX_FAILURES];
    return Math.max(1, Math.ceil((oldest + SIGN_IN_WINDOW_MS - this.now()) / 1000));
  }

  recordFailure(email: string, address: string): void {
    const key = this.key(email, address);
    this.failures.set(key, [...this.recent(key), this.now()].slice(-SIGN_IN_MAX_FAILURES * 2));
    this.sweep();
  }

  recordSuccess(email: string, address: string): void {
    this.failures.delete(this.key(email, address));
  }

  private key(email: string, address: string): string {
    return `${email.trim().toLowerCase()}|${address}`;
  }

  private recent(key: string): number[] {
    const cutoff = this.now() - SIGN_IN_WINDOW_MS;
    return (this.failures.get(key) ?? []).filter((t) => t > cutoff);
  }

  private sweep(): void {
    const now = this.now();
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, times] of this.failures)
      if (times.every((t) => t <= now - SIGN_IN_WINDOW_MS)) this.failures.delete(key);
  }
}
