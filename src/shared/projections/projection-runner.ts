import type { EventStore, Subscription } from '../event-store/event-store.port';
import { StoreUnavailableError } from '../event-store/event-store.port';
import type { ReadStore } from '../read-store/read-store.port';
import { BatchView } from './batch-view';
import type { Projection } from './projection';

interface Running {
  readonly projection: Projection;
  subscription: Subscription | null;
  /** Everything up to here is reflected in the read store. */
  reached: bigint;
  /** The stored checkpoint this run's next batch starts from (compare-and-set on commit). */
  committed: bigint | null;
  retryTimer: NodeJS.Timeout | null;
}

interface Waiter {
  readonly position: bigint;
  readonly names: readonly string[] | null;
  readonly resolve: () => void;
}

/** How far a rebuild has come, reported after every batch (see ProjectionRunner.rebuild). */
export interface RebuildProgress {
  /** Events applied so far, summed over the projections (each sees only the events of its filter). */
  readonly applied: number;
  /** The log position every projection has reached… */
  readonly position: bigint;
  /** …and the head of the log when the rebuild started, where it ends. */
  readonly head: bigint;
}

interface Rebuilding {
  readonly head: bigint;
  applied: number;
  readonly onProgress: (progress: RebuildProgress) => void;
}

export interface ProjectionRunnerOptions {
  readonly batchSize?: number;
  /** A failed projection restarts from its checkpoint after this long. */
  readonly retryDelayMs?: number;
  readonly log?: (message: string, error?: unknown) => void;
}

/**
 * Runs every projection as a subscription from its stored checkpoint. Each batch of events is
 * applied and committed with its checkpoint in one step; a projection that fails restarts from
 * that checkpoint, so nothing is skipped and nothing is applied twice to the read store.
 */
export class ProjectionRunner {
  private readonly running = new Map<string, Running>();
  private readonly waiters = new Set<Waiter>();
  private stopped = true;
  private rebuilding: Rebuilding | null = null;

  constructor(
    private readonly events: EventStore,
    private readonly store: ReadStore,
    private readonly projections: readonly Projection[],
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    const names = new Set<string>();
    for (const p of projections) {
      if (names.has(p.name)) throw new Error(`Two projections are named ${p.name}`);
      names.add(p.name);
    }
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    try {
      for (const projection of this.projections) {
        const running: Running = {
          projection,
          subscription: null,
          reached: 0n,
          committed: null,
          retryTimer: null,
        };
        this.running.set(projection.name, running);
        await this.subscribe(running);
      }
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const running of this.running.values()) {
      if (running.retryTimer) clearTimeout(running.retryTimer);
      await running.subscription?.stop();
      running.subscription = null;
    }
    this.running.clear();
  }

  /**
   * Empties every read model and replays the whole log into it; resolves when caught up.
   * `onProgress` hears after every batch how far the replay has come.
   */
  async rebuild(onProgress?: (progress: RebuildProgress) => void): Promise<void> {
    const wasRunning = !this.stopped;
    await this.stop();
    for (const projection of this.projections)
      await this.store.reset(projection.name, projection.collections);
    const head = await this.events.headPosition();
    this.rebuilding = onProgress ? { head, applied: 0, onProgress } : null;
    try {
      await this.start();
      await this.waitFor(head, null, 24 * 60 * 60 * 1000);
    } finally {
      this.rebuilding = null;
    }
    if (!wasRunning) await this.stop();
  }

  /**
   * Resolves once the named projections (all when `names` is null) reflect the log up to
   * `position`: how a command's caller reads its own write. Throws if they fall behind for
   * longer than `timeoutMs`, rather than answer with an older state.
   */
  waitFor(position: bigint, names: readonly string[] | null = null, timeoutMs = 10_000): Promise<void> {
    if (this.hasReached(position, names)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(
          new StoreUnavailableError(`read models did not reach position ${position} in ${timeoutMs} ms`),
        );
      }, timeoutMs);
      const waiter: Waiter = {
        position,
        names,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.waiters.add(waiter);
    });
  }

  positions(): Record<string, bigint> {
    return Object.fromEntries([...this.running].map(([name, r]) => [name, r.reached]));
  }

  private hasReached(position: bigint, names: readonly string[] | null): boolean {
    // All means every projection, running or not: a stopped runner has reached nothing new.
    const selected = names ?? this.projections.map((p) => p.name);
    return selected.every((name) => {
      const running = this.running.get(name);
      return running !== undefined && running.reached >= position;
    });
  }

  private advance(running: Running, position: bigint): void {
    if (position <= running.reached) return;
    running.reached = position;
    if (this.rebuilding) this.reportRebuild(this.rebuilding);
    for (const waiter of this.waiters) {
      if (this.hasReached(waiter.position, waiter.names)) {
        this.waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  private reportRebuild(rebuilding: Rebuilding): void {
    let position = rebuilding.head;
    for (const running of this.running.values()) if (running.reached < position) position = running.reached;
    rebuilding.onProgress({ applied: rebuilding.applied, position, head: rebuilding.head });
  }

  private async subscribe(running: Running): Promise<void> {
    const { projection } = running;
    const checkpoint = await this.store.checkpoint(projection.name);
    // stop() (or a stop and a new start) may have come while the checkpoint was read: then
    // this run is over and must not leave a subscription behind that nobody will stop.
    if (this.stopped || this.running.get(projection.name) !== running) return;
    if (checkpoint !== null) this.advance(running, checkpoint);
    running.committed = checkpoint;
    projection.onResume?.();
    running.subscription = this.events.subscribe({
      after: checkpoint,
      filter: projection.filter,
      limit: this.options.batchSize ?? 500,
      onEvents: async (events) => {
        const view = new BatchView(this.store);
        for (const event of events) await projection.apply(event, view);
        await view.runEffects();
        const last = events[events.length - 1].position;
        // Another process running this projection on the same read store may have committed
        // these events already: then this batch is dropped and the run resumes from its checkpoint.
        if (!(await this.store.commit(projection.name, view.writes(), last, running.committed))) {
          throw new CheckpointMoved(projection.name);
        }
        running.committed = last;
        if (this.rebuilding) this.rebuilding.applied += events.length;
        this.advance(running, last);
      },
      onCaughtUp: (position) => this.advance(running, position),
      onError: (error) => this.retryLater(running, error),
    });
  }

  private retryLater(running: Running, error: unknown): void {
    const moved = error instanceof CheckpointMoved;
    if (!moved) {
      (this.options.log ?? console.error)(
        `projection ${running.projection.name} failed; restarting from its checkpoint`,
        error,
      );
    }
    void running.subscription?.stop();
    running.subscription = null;
    if (this.stopped || this.running.get(running.projection.name) !== running) return;
    running.retryTimer = setTimeout(
      () => {
        running.retryTimer = null;
        if (!this.stopped) void this.subscribe(running).catch((e) => this.retryLater(running, e));
      },
      moved ? 0 : (this.options.retryDelayMs ?? 1000),
    );
  }
}

/** A batch lost the compare-and-set on its checkpoint: not a failure, just resume from the store. */
class CheckpointMoved extends Error {
  constructor(projection: string) {
    super(`projection ${projection}: the checkpoint moved under this batch (another process committed it)`);
    this.name = 'CheckpointMoved';
  }
}
