import { Logger } from '@nestjs/common';
import { NextDue, PollingLoop } from './polling-loop';
import { ReadModelChanges } from './projections/read-model-changes';
import { ReadStore } from './read-store/read-store.port';

/** Work that a read model lists (a queue's partition) and a job runs one item at a time. */
export interface QueuedWork {
  /** What one item is, for the log: "contact import", "campaign". */
  readonly noun: string;
  readonly collection: string;
  readonly partition: string;
  /** How often it looks while items are listed (one may be held by another process). */
  readonly pollMs: number;
  /** The longest it rests with nothing listed and nothing written to the collection (IDLE_POLL_MS). */
  readonly restMs: number;
  /** Runs one item to its end or to a stop; a failure is logged and the item tried at a later tick. */
  readonly run: (id: string, stopped: () => boolean) => Promise<void>;
}

/** Items looked at per tick, oldest first. */
const PAGE = 20;

/**
 * The loop under the contact-import and campaign jobs: it rests while the read model lists
 * nothing, wakes when the collection is written, and runs what is listed oldest first, one after
 * the other, so one item's trouble (a store that failed mid-chunk) never holds up the others.
 */
export class QueuedWorkLoop {
  private readonly loop: PollingLoop;
  private stopped = true;

  constructor(
    private readonly work: QueuedWork,
    private readonly reads: ReadStore,
    changes: ReadModelChanges,
    private readonly logger: Logger,
  ) {
    this.loop = new PollingLoop(
      work.pollMs,
      () => this.tick(),
      (error) => this.logger.warn(`${work.noun} tick failed: ${error.message}`),
      { restMs: work.restMs, wakeOn: (wake) => changes.on([work.collection], wake) },
    );
  }

  /** Whether the loop has been stopped (a running item checks it between chunks). */
  readonly isStopped = (): boolean => this.stopped;

  start(): void {
    this.stopped = false;
    this.loop.start();
  }

  /** Stops; resolves once the item in progress has reached a stop. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop.stop();
  }

  /** Runs the items listed; null (rest) when there are none, else look again after the interval. */
  async tick(): Promise<NextDue> {
    const listed = await this.reads.list<{ id: string }>(this.work.collection, {
      partition: this.work.partition,
      order: 'asc',
      limit: PAGE,
    });
    if (listed.length === 0) return null;
    for (const { id } of listed) {
      if (this.stopped) return;
      await this.work.run(id, this.isStopped).catch((error: unknown) =>
        this.logger.warn(`${this.work.noun} ${id} stopped, to be resumed: ${(error as Error).message}`),
      );
    }
  }
}
