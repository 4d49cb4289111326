import type { EventStore, Subscription } from '../event-store/event-store.port';
import { StoreUnavailableError } from '../event-store/event-store.port';
import type { DocumentWrite, ReadStore } from '../read-store/read-store.port';
import { BatchView, CommittedDocuments, PendingWrites } from './batch-view';
import type { Projection } from './projection';

interface Running {
  readonly projection: Projection;
  /** Its own documents as last committed or read (dropped whenever it resumes). */
  readonly documents: CommittedDocuments;
  subscription: Subscription | null;
  /** Everything up to here is reflected in the read store. */
  reached: bigint;
  /** The stored checkpoint this run's next batch starts from (compare-and-set on commit). */
  committed: bigint | null;
  retryTimer: NodeJS.Timeout | null;
  /** Applied and not committed yet: the writes, and the position they reach. */
  pending: PendingWrites | null;
  pendingTo: bigint | null;
  /** The subscription looked at the whole log up to here while writes were pending. */
  caughtUpTo: bigint | null;
  /** A batch is being applied: a commit now would take half of it. */
  applying: boolean;
  /** A commit was asked for while a batch was being applied: it comes at the batch's end. */
  commitAsked: boolean;
  committing: Promise<void> | null;
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

/** How often a rebuild that has not reached the log's head says what it waits for. */
const REBUILD_STALL_REPORT_MS = 30_000;

export interface ProjectionRunnerOptions {
  readonly batchSize?: number;
  /** A failed projection restarts from its checkpoint after this long. */
  readonly retryDelayMs?: number;
  /** How long applied writes may wait to be committed, with every other projection's. */
  readonly commitIntervalMs?: number;
  /** How long a checkpoint with no writes behind it (a process manager's) may wait. */
  readonly idleCheckpointMs?: number;
  readonly log?: (message: string, error?: unknown) => void;
  /**
   * Hears which collections changed: those a commit wrote, and all of a projection's when it
   * resumes from its stored checkpoint (another process may have written them). ReadModelChanges.
   */
  readonly onChanged?: (collections: Iterable<string>) => void;
}

/**
 * How long applied writes wait for more: a message's queued, sent and delivered states usually
 * fall within 50 ms of each other and then cost one document write instead of two or three
 * (at 10 ms, 1.9 writes a message under sustained load). A reader who waits is served at once.
 */
const DEFAULT_COMMIT_INTERVAL_MS = 50;

/** So many pending writes are committed at once rather than held longer. */
const MAX_PENDING_WRITES = 2000;

/**
 * Runs every projection as a subscription from its stored checkpoint. Writes and checkpoint are
 * committed together, so nothing is skipped and nothing is applied twice to the read store; a
 * projection that fails restarts from its checkpoint.
 *
 * Commits are paced rather than one per batch: what every projection applied is committed
 * together, in one transaction, every `commitIntervalMs` (a checkpoint alone, every
 * `idleCheckpointMs`), and at once when someone waits for it (waitFor) or there is a lot of it.
 * Under light load each event used to cost each projection a transaction of its own; a batch's
 * side effects still run at its end, before anything that follows.
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
          documents: new CommittedDocuments(projection.collections),
          subscription: null,
          reached: 0n,
          committed: null,
          retryTimer: null,
          pending: null,
          pendingTo: null,
          caughtUpTo: null,
          applying: false,
          commitAsked: false,
          committing: null,
        };
        this.running.set(projection.name, running);
        await this.retireReplaced(projection);
        await this.subscribe(running);
      }
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    // Both, or a restart (a rebuild) would believe a commit still armed and never commit again.
    if (this.commitTimer) clearTimeout(this.commitTimer);
    this.commitTimer = null;
    this.commitAt = Number.POSITIVE_INFINITY;
    for (const running of this.running.values()) {
      if (running.retryTimer) clearTimeout(running.retryTimer);
      await running.subscription?.stop();
      running.subscription = null;
    }
    // What was applied is kept: committed now rather than applied again at the next start.
    await Promise.all(
      [...this.running.values()].map((running) =>
        this.commit(running).catch((error) =>
          (this.options.log ?? console.error)(
            `projection ${running.projection.name}: last commit failed`,
            error,
          ),
        ),
      ),
    );
    this.running.clear();
  }

  /**
   * Empties every read model and replays the whole log into it; resolves when caught up.
   * `onProgress` hears after every batch how far the replay has come.
   */
  async rebuild(onProgress?: (progress: RebuildProgress) => void): Promise<void> {
    const wasRunning = !this.stopped;
    await this.stop();
    for (const projection of this.projections) {
      await this.store.reset(projection.name, projection.collections);
      for (const retired of projection.replaces ?? [])
        await this.store.reset(retired.name, retired.collections);
    }
    const head = await this.events.headPosition();
    this.rebuilding = onProgress ? { head, applied: 0, onProgress } : null;
    // A replay that stops moving says which read models hold it back, instead of waiting in silence.
    const watch = setInterval(() => {
      const behind = [...this.running.values()]
        .filter((r) => r.reached < head)
        .map((r) => `${r.projection.name} at ${r.reached}${r.subscription ? '' : ' (not subscribed)'}`);
      if (behind.length > 0)
        (this.options.log ?? console.error)(
          `rebuild to position ${head} still waits for ${behind.join(', ')}`,
        );
    }, REBUILD_STALL_REPORT_MS);
    watch.unref?.();
    try {
      await this.start();
      await this.waitFor(head, null, 24 * 60 * 60 * 1000);
    } finally {
      clearInterval(watch);
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
    const waiting = new Promise<void>((resolve, reject) => {
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
    // Someone reads their own write: what is applied is committed now, not at the next tick.
    for (const running of this.running.values()) {
      if (names === null || names.includes(running.projection.name)) this.commitSoon(running, 0);
    }
    return waiting;
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

  /**
   * A projection that took over retired ones' documents starts over while any of them has a
   * checkpoint (Projection.replaces): once, at the first start after the merge. Its own reset
   * comes first, so a crash in between only starts it over again.
   */
  private async retireReplaced(projection: Projection): Promise<void> {
    const retired = [];
    for (const r of projection.replaces ?? [])
      if ((await this.store.checkpoint(r.name)) !== null) retired.push(r);
    if (retired.length === 0) return;
    (this.options.log ?? console.error)(
      `${projection.name} took over ${retired.map((r) => r.name).join(', ')}: applying it again from the log's start`,
    );
    await this.store.reset(projection.name, projection.collections);
    for (const r of retired) await this.store.reset(r.name, r.collections);
  }

  private async subscribe(running: Running): Promise<void> {
    const { projection } = running;
    const checkpoint = await this.store.checkpoint(projection.name);
    // stop() (or a stop and a new start) may have come while the checkpoint was read: then
    // this run is over and must not leave a subscription behind that nobody will stop.
    if (this.stopped || this.running.get(projection.name) !== running) return;
    if (checkpoint !== null) this.advance(running, checkpoint);
    running.committed = checkpoint;
    running.pending = null;
    running.pendingTo = null;
    running.caughtUpTo = null;
    running.documents.clear();
    projection.onResume?.();
    // Resumed from the store: its collections are what another process may have made them.
    if (projection.collections.length > 0) this.options.onChanged?.(projection.collections);
    running.subscription = this.events.subscribe({
      after: checkpoint,
      filter: projection.filter,
      limit: this.options.batchSize ?? 500,
      onEvents: async (events) => {
        if (running.committing) await running.committing;
        running.applying = true;
        let view: BatchView;
        try {
          view = new BatchView(this.store, running.pending ?? undefined, running.documents);
          for (const event of events) await projection.apply(event, view);
          await view.runEffects();
        } finally {
          running.applying = false;
        }
        running.pending = view.pending;
        running.pendingTo = events[events.length - 1].position;
        running.caughtUpTo = null;
        if (this.rebuilding) this.rebuilding.applied += events.length;
        const needed =
          running.commitAsked || this.awaited(running) || view.pending.size >= MAX_PENDING_WRITES;
        // A failed commit fails the batch, so the subscription stops and restarts from its checkpoint.
        if (needed) await this.commit(running);
        else this.commitSoon(running, view.pending.size > 0 ? this.commitIntervalMs : this.idleCheckpointMs);
      },
      onCaughtUp: (position) => {
        if (running.pendingTo === null && !running.committing) this.advance(running, position);
        else running.caughtUpTo = position;
      },
      onError: (error) => this.retryLater(running, error),
    });
  }

  private get commitIntervalMs(): number {
    return this.options.commitIntervalMs ?? DEFAULT_COMMIT_INTERVAL_MS;
  }

  private get idleCheckpointMs(): number {
    return this.options.idleCheckpointMs ?? 1000;
  }

  private commitTimer: NodeJS.Timeout | null = null;
  private commitAt = Number.POSITIVE_INFINITY;

  /**
   * Commits every projection's pending writes within `delayMs`: one timer for all, so their
   * commits are asked for in the same turn and share one transaction.
   */
  private commitSoon(running: Running, delayMs: number): void {
    if (running.pendingTo === null) return;
    if (delayMs === 0 && running.applying) {
      running.commitAsked = true;
      return;
    }
    const at = Date.now() + delayMs;
    if (at >= this.commitAt) return;
    if (this.commitTimer) clearTimeout(this.commitTimer);
    this.commitAt = at;
    this.commitTimer = setTimeout(() => this.commitAll(), delayMs);
    this.commitTimer.unref?.();
  }

  private commitAll(): void {
    this.commitTimer = null;
    this.commitAt = Number.POSITIVE_INFINITY;
    for (const running of this.running.values()) {
      if (running.pendingTo === null) continue;
      if (running.applying) running.commitAsked = true;
      else this.commit(running).catch((error) => this.retryLater(running, error));
    }
  }

  /** Someone waits for this projection: its writes should not wait for the timer. */
  private awaited(running: Running): boolean {
    const name = running.projection.name;
    for (const waiter of this.waiters) if (waiter.names === null || waiter.names.includes(name)) return true;
    return false;
  }

  /** Commits what the projection applied, with its checkpoint; then readers see it (advance). */
  private commit(running: Running): Promise<void> {
    if (running.committing) return running.committing;
    const to = running.pendingTo;
    if (to === null) return Promise.resolve();
    const writes = running.pending?.list() ?? [];
    const caughtUpTo = running.caughtUpTo;
    running.pending = null;
    running.pendingTo = null;
    running.caughtUpTo = null;
    running.commitAsked = false;
    const name = running.projection.name;
    running.committing = (async () => {
      // Another process running this projection on the same read store may have committed these
      // events already: then they are dropped and the run resumes from the stored checkpoint.
      if (!(await this.store.commit(name, writes, to, running.committed))) throw new CheckpointMoved(name);
      running.committed = to;
      running.documents.committed(writes);
      if (writes.length > 0 && this.options.onChanged) this.options.onChanged(collectionsOf(writes));
      this.advance(running, caughtUpTo !== null && caughtUpTo > to ? caughtUpTo : to);
    })().finally(() => {
      running.committing = null;
      // Caught up again while this commit ran, with nothing applied since: readers may see it.
      if (running.pendingTo === null && running.caughtUpTo !== null) {
        this.advance(running, running.caughtUpTo);
        running.caughtUpTo = null;
      }
    });
    return running.committing;
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

function collectionsOf(writes: readonly DocumentWrite[]): Set<string> {
  const collections = new Set<string>();
  for (const write of writes) collections.add(write.collection);
  return collections;
}

/** A batch lost the compare-and-set on its checkpoint: not a failure, just resume from the store. */
class CheckpointMoved extends Error {
  constructor(projection: string) {
    super(`projection ${projection}: the checkpoint moved under this batch (another process committed it)`);
    this.name = 'CheckpointMoved';
  }
}
