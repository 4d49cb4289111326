import { fold, type Decider, type DomainEvent } from '../decider';
import type { Result } from '../result';
import { ok } from '../result';
import { RecentlyUsed } from '../recently-used';
import { ConcurrencyError, EventStore, RecordedEvent } from './event-store.port';

/** How an aggregate's state is written to and read from a snapshot. */
export interface SnapshotCodec<State> {
  /** Take a snapshot once this many events were appended since the last one. */
  readonly every: number;
  /** When given, `every` for this state (a bigger state is snapshotted less often). */
  interval?(state: State): number;
  encode(state: State): unknown;
  decode(data: unknown): State;
}

export interface Loaded<State> {
  readonly state: State;
  /** Revision of the last event folded in, -1n for a stream that does not exist yet. */
  readonly revision: bigint;
}

export interface Handled<State, Event> {
  readonly state: State;
  readonly revision: bigint;
  readonly events: readonly Event[];
  /** Global position of the append, null when the decision recorded nothing. */
  readonly position: bigint | null;
}

const SNAPSHOT_TYPE = 'Snapshot';
export const snapshotStreamOf = (streamId: string) => `snapshot-${streamId}`;

/**
 * Loads aggregates by folding their stream (from the newest snapshot, when the aggregate has
 * a codec) and records decisions with an exact expected revision, retrying on conflict with
 * a fresh load: the optimistic-concurrency loop every command handler needs.
 */
export class AggregateStore {
  /**
   * States this process decided on lately. Events never change, so a state at revision r plus
   * whatever the stream gained after r is the current state, and an append expecting revision r
   * fails if the stream gained anything: `handle` decides on the remembered state without
   * reading the stream or its snapshot again, and reads only the newer events when it must.
   */
  private readonly recent = new RecentStates();

  constructor(private readonly events: EventStore) {}

  /** Folds the stream from its newest snapshot (or its start): what is stored, never a cached state. */
  load<State, Event extends DomainEvent>(
    streamId: string,
    decider: Decider<State, Event>,
    snapshots?: SnapshotCodec<State>,
  ): Promise<Loaded<State>> {
    return this.loadFrom(streamId, decider, snapshots, null);
  }

  /**
   * The stream's state now, folded on from `known` (a state the caller holds, at its revision)
   * by reading only the events after it: usually none. Without `known`, `load`.
   */
  async loadFrom<State, Event extends DomainEvent>(
    streamId: string,
    decider: Decider<State, Event>,
    snapshots: SnapshotCodec<State> | undefined,
    known: Loaded<State> | null,
  ): Promise<Loaded<State>> {
    let state = known ? known.state : decider.initialState();
    let from = known ? known.revision + 1n : 0n;
    if (snapshots && !known) {
      const [snapshot] = await this.events.readStream(snapshotStreamOf(streamId), {
        direction: 'backwards',
        limit: 1,
      });
      if (snapshot) {
        const data = snapshot.data as { revision: string; state: unknown };
        state = snapshots.decode(data.state);
        from = BigInt(data.revision) + 1n;
      }
    }
    let revision = from - 1n;
    for (;;) {
      const page = await this.events.readStream(streamId, { fromRevision: from, limit: 1000 });
      state = fold(decider, page as unknown as Event[], state);
      if (page.length > 0) revision = page[page.length - 1].revision;
      if (page.length < 1000) break;
      from = revision + 1n;
    }
    return { state, revision };
  }

  /**
   * Decides against the current state and appends the outcome at exactly the revision it was
   * decided on. On a conflict it reloads and decides again, up to `attempts` times (a remembered
   * state found behind the stream is not a conflict with another writer and is not counted).
   */
  async handle<State, Event extends DomainEvent, Error>(
    streamId: string,
    decider: Decider<State, Event>,
    decide: (state: State) => Result<Event[], Error>,
    options: { attempts?: number; snapshots?: SnapshotCodec<State>; metadata?: Record<string, unknown> } = {},
  ): Promise<Result<Handled<State, Event>, Error>> {
    const attempts = options.attempts ?? 10;
    let trustRecent = true;
    for (let attempt = 1; ;) {
      // The remembered state is decided on without a read: an append at its revision fails if
      // the stream moved on. Recording nothing proves nothing, so a refusal or a no-op on it
      // is checked against the stream's newer events first.
      const recent = trustRecent ? this.recent.get<State>(streamId, decider) : null;
      let loaded = recent ?? (await this.loadLatest(streamId, decider, options.snapshots));
      let decision = decide(loaded.state);
      if (recent && !(decision.ok && decision.value.length > 0)) {
        loaded = await this.loadLatest(streamId, decider, options.snapshots);
        if (loaded.revision !== recent.revision) decision = decide(loaded.state);
      }
      if (!decision.ok) return decision;
      const events = decision.value;
      if (events.length === 0) return ok({ ...loaded, events, position: null });
      try {
        const appended = await this.events.append(
          streamId,
          events.map((e) => ({ type: e.type, data: e.data, metadata: options.metadata })),
          loaded.revision < 0n ? 'no_stream' : loaded.revision,
        );
        let state = loaded.state;
        for (const event of events) state = decider.evolve(state, event);
        this.recent.keep(streamId, decider, { state, revision: appended.nextExpectedRevision });
        if (options.snapshots)
          await this.maybeSnapshot(
            streamId,
            state,
            loaded.revision,
            appended.nextExpectedRevision,
            options.snapshots,
          );
        return ok({ state, revision: appended.nextExpectedRevision, events, position: appended.position });
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
        trustRecent = false;
        if (loaded === recent) continue; // it was behind (another process wrote): read and decide again now
        if (attempt >= attempts) throw error;
        await jitter(attempt++);
      }
    }
  }

  /**
   * The stream's state for a decision the caller makes itself: the remembered state when it may
   * be trusted as current (the caller knows nobody else could have written since), else the
   * remembered state brought up to date with the stream's newer events (or the stream folded).
   */
  async state<State, Event extends DomainEvent>(
    streamId: string,
    decider: Decider<State, Event>,
    options: { trustRemembered: boolean; snapshots?: SnapshotCodec<State> },
  ): Promise<Loaded<State>> {
    const remembered = options.trustRemembered ? this.recent.get<State>(streamId, decider) : null;
    return remembered ?? this.loadLatest(streamId, decider, options.snapshots);
  }

  /**
   * Remembers a state the caller folded itself from recorded events (say, a process manager that
   * saw a stream's first event go by), so a later `handle` decides on it without reading. Safe
   * for the same reason as every remembered state: an append at its revision fails if the
   * stream has moved on, and an answer that records nothing is checked against the stream.
   */
  remember<State, Event extends DomainEvent>(
    streamId: string,
    decider: Decider<State, Event>,
    loaded: Loaded<State>,
  ): void {
    const known = this.recent.get<State>(streamId, decider);
    if (!known || known.revision < loaded.revision) this.recent.keep(streamId, decider, loaded);
  }

  /** The stream folded from the remembered state (or from scratch), remembered in turn. */
  private async loadLatest<State, Event extends DomainEvent>(
    streamId: string,
    decider: Decider<State, Event>,
    snapshots: SnapshotCodec<State> | undefined,
  ): Promise<Loaded<State>> {
    const known = this.recent.get<State>(streamId, decider);
    const loaded = await this.loadFrom(streamId, decider, snapshots, known);
    if (loaded.revision >= 0n) this.recent.keep(streamId, decider, loaded);
    return loaded;
  }

  /**
   * Writes a snapshot when the append crossed a multiple of `every`. Never throws: it runs
   * after the events were recorded, and a caller told "failed" would retry a command that
   * already happened. A missed snapshot only means the next one comes `every` events later.
   */
  async maybeSnapshot<State>(
    streamId: string,
    state: State,
    before: bigint,
    after: bigint,
    codec: SnapshotCodec<State>,
  ): Promise<void> {
    const every = BigInt(codec.interval ? codec.interval(state) : codec.every);
    if ((before + 1n) / every === (after + 1n) / every) return;
    try {
      await this.events.append(
        snapshotStreamOf(streamId),
        [{ type: SNAPSHOT_TYPE, data: { revision: after.toString(), state: codec.encode(state) } }],
        'any',
      );
    } catch {
      // Best effort by design (see above); loading still folds the stream from the last snapshot.
    }
  }
}

const MAX_RECENT_STATES = 10_000;

/** Remembered states by stream, each valid only for the decider that folded it. */
class RecentStates {
  private readonly entries = new RecentlyUsed<string, { decider: object; loaded: Loaded<unknown> }>(
    MAX_RECENT_STATES,
  );

  get<State>(streamId: string, decider: object): Loaded<State> | null {
    const entry = this.entries.get(streamId);
    return entry && entry.decider === decider ? (entry.loaded as Loaded<State>) : null;
  }

  /** Remembers the state, or forgets the stream once its state is final (Decider.isFinal). */
  keep<State>(streamId: string, decider: Decider<State, DomainEvent>, loaded: Loaded<State>): void {
    if (decider.isFinal?.(loaded.state)) this.entries.delete(streamId);
    else this.entries.set(streamId, { decider, loaded });
  }
}

/** Backs off a little, more each attempt, so racing writers stop colliding. */
const jitter = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));

export type { RecordedEvent };
