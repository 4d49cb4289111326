import type { Logger } from '@nestjs/common';
import type { Clock } from '../../shared/clock';
import type { AggregateStore } from '../../shared/event-store/aggregate-store';
import {
  DISPATCH_LEASES_STREAM,
  dispatchLeasesDecider,
  dispatchLeasesSnapshots,
  release,
  renew,
} from '../domain/dispatch-leases.decider';

export interface LeaseKeeperOptions {
  readonly holder: string;
  readonly partitionCount: number;
  /** How long a renewal holds. */
  readonly leaseMs: number;
  /** How often the holder renews (well inside `leaseMs`). */
  readonly renewMs: number;
  /** No submission starts when less than this is left of the lease: a slow one must end in time. */
  readonly marginMs: number;
}

/**
 * Holds this process's dispatch leases (see dispatch-leases.decider): renews them on a timer,
 * hands partitions over to the dispatchers that join, and says which partitions this process
 * may submit messages of right now. A renewal the store refuses or cannot take leaves the
 * leases to run out, and submissions stop before they do.
 */
export class DispatchLeaseKeeper {
  /** Held partitions and since when (epoch ms). */
  private readonly held = new Map<number, number>();
  private until = 0;
  private timer: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;
  private stopped = true;

  constructor(
    private readonly aggregates: AggregateStore,
    private readonly clock: Clock,
    private readonly options: LeaseKeeperOptions,
    private readonly events: {
      /** Partitions newly held: their pending messages are this process's to dispatch now. */
      readonly acquired: (partitions: readonly number[]) => void;
      /** Partitions this process is still submitting messages of (kept even beyond its share). */
      readonly busy: () => ReadonlySet<number>;
      /** Holders known dead (InstanceLiveness): their partitions are taken at once. */
      readonly dead?: () => ReadonlySet<string>;
      /** False when this process's own heartbeat is late: the others may soon take its partitions. */
      readonly fresh?: () => boolean;
      readonly logger: Pick<Logger, 'warn'>;
    },
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.renewNow();
    this.schedule();
  }

  /** Gives every partition back, so another process takes them at its next renewal. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.renewing;
    this.held.clear();
    this.until = 0;
    try {
      await this.aggregates.handle(DISPATCH_LEASES_STREAM, dispatchLeasesDecider, (s) =>
        release(s, { holder: this.options.holder, now: this.clock.now() }),
      );
    } catch (error) {
      this.events.logger.warn(`releasing the dispatch leases failed; they run out instead: ${String(error)}`);
    }
  }

  /** True when a submission of this partition's messages may start now. */
  holds(partition: number): boolean {
    return (
      this.held.has(partition) &&
      this.clock.now().getTime() < this.until - this.options.marginMs &&
      (this.events.fresh?.() ?? true)
    );
  }

  /** Renews now (after the one under way): a holder was found dead and its partitions are free. */
  renewSoon(): void {
    if (this.stopped) return;
    void this.renewNow();
  }

  /** When this process took the partition (epoch ms), undefined if it does not hold it. */
  heldSince(partition: number): number | undefined {
    return this.held.get(partition);
  }

  partitions(): number[] {
    return [...this.held.keys()];
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.renewNow().finally(() => this.schedule());
    }, this.options.renewMs);
    this.timer.unref?.();
  }

  private renewNow(): Promise<void> {
    // One renewal at a time: each is decided on the stream as the one before it left it.
    const previous = this.renewing ?? Promise.resolve();
    this.renewing = previous.then(() =>
      this.renewOnce().catch((error) =>
        this.events.logger.warn(`renewing the dispatch leases failed; retried next round: ${String(error)}`),
      ),
    );
    return this.renewing;
  }

  private async renewOnce(): Promise<void> {
    const now = this.clock.now();
    const handled = await this.aggregates.handle(
      DISPATCH_LEASES_STREAM,
      dispatchLeasesDecider,
      (s) =>
        renew(s, {
          holder: this.options.holder,
          partitionCount: this.options.partitionCount,
          leaseMs: this.options.leaseMs,
          now,
          busy: this.events.busy(),
          dead: this.events.dead?.(),
        }),
      { snapshots: dispatchLeasesSnapshots },
    );
    if (!handled.ok || this.stopped) return;
    const renewal = handled.value.events[0].data;
    const granted = new Set(renewal.partitions);
    for (const partition of this.held.keys()) if (!granted.has(partition)) this.held.delete(partition);
    const acquired = renewal.partitions.filter((p) => !this.held.has(p));
    for (const partition of acquired) this.held.set(partition, now.getTime());
    this.until = Date.parse(renewal.until);
    if (acquired.length > 0) this.events.acquired(acquired);
  }
}
