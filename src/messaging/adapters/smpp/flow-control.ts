/**
 * Flow control for submit_sm: a token bucket for throughput (PDUs per second) and a window of
 * PDUs awaiting their response.
 */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  /**
   * @param ratePerSecond tokens added per second
   * @param burst most tokens held at once (1 = evenly paced)
   */
  constructor(
    private readonly ratePerSecond: number,
    private readonly burst = 1,
    private readonly now: () => number = () => Date.now(),
  ) {
    if (!(ratePerSecond > 0)) throw new Error('TokenBucket rate must be positive');
    this.tokens = burst;
    this.updatedAt = this.now();
  }

  /**
   * Reserves one token and returns how long to wait before using it (0 = now), or null when the
   * wait would be longer than maxWaitMs (nothing reserved then). Reservations queue in call order.
   */
  reserve(maxWaitMs: number): number | null {
    this.refill();
    const waitMs = this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) / this.ratePerSecond) * 1000);
    if (waitMs > maxWaitMs) return null;
    this.tokens -= 1;
    return waitMs;
  }

  /** How long until a token would be free without waiting. */
  waitEstimateMs(): number {
    this.refill();
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) / this.ratePerSecond) * 1000);
  }

  private refill(): void {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.updatedAt) / 1000) * this.ratePerSecond);
    this.updatedAt = now;
  }
}

/** A counting semaphore with FIFO waiters and a wait limit. */
export class SubmitWindow {
  private inFlight = 0;
  private readonly waiters: Array<{ grant: () => void }> = [];

  constructor(readonly size: number) {
    if (!(size >= 1)) throw new Error('SubmitWindow size must be at least 1');
  }

  get used(): number {
    return this.inFlight;
  }

  /** Resolves with a release function, or null if no slot freed up within timeoutMs. */
  acquire(timeoutMs: number): Promise<(() => void) | null> {
    if (this.inFlight < this.size && this.waiters.length === 0) {
      this.inFlight++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve) => {
      const waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve(this.releaser());
        },
      };
      const timer = setTimeout(() => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        resolve(null);
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) next.grant();
      else this.inFlight--;
    };
  }
}
