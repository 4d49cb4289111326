/** Retry timing of deliveries that may fail (webhooks, mails): pure, so tests pin it without waiting. */
export interface RetryPolicy {
  /** The first retry waits this long; each further one twice as long as the previous. */
  readonly baseMs: number;
  /** No wait is longer than this. */
  readonly maxMs: number;
  /** A delivery failing this long after its first attempt is abandoned; an endpoint failing continuously this long is disabled. */
  readonly windowMs: number;
}

/** The wait before attempt `attempt + 1`, after `attempt` failures (1-based), with ±10 % jitter. */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 40);
  const raw = Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
  return Math.max(0, Math.round(raw * (0.9 + 0.2 * random())));
}

/** Past the window since the first attempt: give the delivery up. */
export function windowExpired(policy: RetryPolicy, since: string | null, now: Date): boolean {
  return since !== null && now.getTime() - Date.parse(since) >= policy.windowMs;
}
