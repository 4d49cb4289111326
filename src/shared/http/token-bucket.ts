/** Tokens refill continuously at `perSecond` up to `burst`; a request takes one (a batch, one per item). */
export interface BucketLimit {
  readonly perSecond: number;
  readonly burst: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * Token buckets by name, in this process. One map lookup and a little arithmetic per request,
 * so it stays cheap on the hot path; idle buckets are forgotten once full again, and past
 * `capacity` buckets the oldest one is (it starts again from a full burst).
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private lastSweep = 0;

  constructor(
    private readonly limit: BucketLimit,
    private readonly capacity = Infinity,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Takes `count` tokens (all or none); returns 0 when allowed, else the seconds until that many
   * are available. More than `burst` at once are never available.
   */
  take(name: string, count = 1): number {
    const now = this.now();
    this.sweep(now);
    let bucket = this.buckets.get(name);
    if (bucket === undefined) {
      bucket = { tokens: this.limit.burst, updatedAt: now };
      if (this.buckets.size >= this.capacity) this.buckets.delete(this.buckets.keys().next().value as string);
      this.buckets.set(name, bucket);
    } else {
      bucket.tokens = Math.min(
        this.limit.burst,
        bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.limit.perSecond,
      );
      bucket.updatedAt = now;
    }
    if (bucket.tokens >= count) {
      bucket.tokens -= count;
      return 0;
    }
    return Math.max(1, Math.ceil((count - bucket.tokens) / this.limit.perSecond));
  }

  /** How many buckets are held. */
  get size(): number {
    return this.buckets.size;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    const refillMs = (this.limit.burst / this.limit.perSecond) * 1000;
    for (const [name, bucket] of this.buckets)
      if (now - bucket.updatedAt > refillMs) this.buckets.delete(name);
  }
}
