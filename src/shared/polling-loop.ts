/**
 * When a tick's work next falls due: an epoch-ms time, `null` when it knows of none (the loop may
 * rest), or nothing at all: look again after the interval, as a plain poll does.
 */
export type NextDue = number | null | void;

export interface RestingOptions {
  /**
   * The longest the loop rests while its tick knows of nothing due and nothing wakes it: the
   * safety net under the change signal (IDLE_POLL_MS).
   */
  readonly restMs: number;
  /**
   * Subscribes the loop to a change signal, typically `ReadModelChanges.on(collections, wake)`,
   * and answers the unsubscribe; called once, at start.
   */
  readonly wakeOn?: (wake: () => void) => () => void;
}

/**
 * Runs `tick` every `intervalMs`, one at a time (the next wait starts when a tick ends), until
 * stopped; a failed tick is reported and the loop goes on. What the outboxes, the dispatcher and
 * the sweeps poll with.
 *
 * With `resting` options it rests instead of polling when there is nothing to do: a tick answers
 * when its work next falls due (NextDue), and the loop sleeps until then, at most `restMs`,
 * unless the change signal wakes it sooner (a read model it reads was written). It never looks
 * more often than every `intervalMs`, so under load it polls exactly as a plain loop would.
 */
export class PollingLoop {
  private timer: NodeJS.Timeout | null = null;
  /** When the armed timer fires (epoch ms). */
  private armedAt = Number.POSITIVE_INFINITY;
  private ticking: Promise<void> | null = null;
  private running = false;
  /** When the last tick ended (epoch ms). */
  private lastEnd = 0;
  /** The signal came while a tick ran: it may have looked before the change. */
  private changedWhileTicking = false;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly intervalMs: number,
    private readonly tick: () => Promise<NextDue>,
    private readonly onError: (error: Error) => void,
    private readonly resting?: RestingOptions,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.lastEnd = Date.now();
    this.unsubscribe = this.resting?.wakeOn?.(() => this.wake()) ?? null;
    this.arm(this.lastEnd + this.intervalMs);
  }

  /** Stops polling; resolves once a tick in progress has ended. */
  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.armedAt = Number.POSITIVE_INFINITY;
    await this.ticking;
  }

  /** What the tick looks at changed: look again soon, though never sooner than the interval allows. */
  wake(): void {
    if (!this.running) return;
    if (this.ticking) {
      this.changedWhileTicking = true;
      return;
    }
    this.arm(Math.max(Date.now(), this.lastEnd + this.intervalMs));
  }

  /** Sets the timer for `at` unless it is set for sooner already. */
  private arm(at: number): void {
    if (!this.running || at >= this.armedAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.armedAt = at;
    this.timer = setTimeout(() => this.run(), Math.max(0, at - Date.now()));
  }

  private run(): void {
    this.timer = null;
    this.armedAt = Number.POSITIVE_INFINITY;
    this.changedWhileTicking = false;
    this.ticking = this.tick()
      .catch((error: Error) => this.onError(error))
      .then((next) => {
        this.ticking = null;
        this.lastEnd = Date.now();
        this.arm(this.nextAt(next));
      });
  }

  private nextAt(next: NextDue): number {
    const soonest = this.lastEnd + this.intervalMs;
    if (!this.resting || next === undefined || this.changedWhileTicking) return soonest;
    const latest = this.lastEnd + Math.max(this.intervalMs, this.resting.restMs);
    if (next === null) return latest;
    return Math.min(latest, Math.max(soonest, next));
  }
}
