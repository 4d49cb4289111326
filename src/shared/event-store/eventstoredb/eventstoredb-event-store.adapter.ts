import { BACKWARDS, END, EventStoreDBClient, FORWARDS, START } from '@eventstore/db-client';
import type { AllStreamResolvedEvent, Position, ReadPosition, ResolvedEvent } from '@eventstore/db-client';
import {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StoreUnavailableError,
  StreamAppend,
  SubscribeOptions,
  Subscription,
} from '../event-store.port';
import {
  EsdbResolvedEventLike,
  acceptResolved,
  fromEsdbPosition,
  isStreamNotFound,
  mapEsdbError,
  ownStreamOf,
  positionOfResolved,
  toEsdbExpectedRevision,
  toEsdbFilter,
  toEsdbReadPosition,
  toEventData,
  toRecordedEvent,
} from './eventstoredb-mapping';
import { StreamNamespace } from './stream-namespace';

export interface EventStoreDbEventStoreOptions {
  /** How often an idle subscription re-checks how far the log goes (for onCaughtUp). */
  readonly idleCheckMs?: number;
  /** Events read per page when scanning $all on the client (readAll, head, catch-up checks). */
  readonly pageSize?: number;
  /** A stand-in client (the adapter's own tests use an in-memory fake). */
  readonly client?: EventStoreDBClient;
  /** STORE_NAMESPACE: this store sees only the streams it wrote (stream-namespace.ts). */
  readonly namespace?: string;
}

/** An item of a subscription's queue: an event, or how far the server's filter has looked. */
type Queued = { kind: 'event'; resolved: AllStreamResolvedEvent } | { kind: 'checkpoint'; position: bigint };

/**
 * EventStoreDB behind the event store port (see eventstoredb-mapping.ts for how revisions,
 * positions, filters and errors map). This file is the thin I/O part: it cannot be exercised
 * without a server; the contract suite in test/contracts runs it when EVENT_STORE_URL is set.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly idleCheckMs: number;
  private readonly pageSize: number;
  private readonly subscriptions = new Set<Subscription>();
  private readonly namespace: StreamNamespace;
  private headCache: { at: number; value: Promise<bigint> } | null = null;
  /** What headPosition last found: this store's head among the log up to `scannedTo`. */
  private headScan: { scannedTo: bigint; head: bigint } | null = null;
  /** EventStoreDB has no multi-stream transactions: appendAll writes its appends one by one. */
  readonly atomicMultiStreamAppends = false;

  constructor(connectionString: string, options: EventStoreDbEventStoreOptions = {}) {
    this.client = options.client ?? EventStoreDBClient.connectionString(connectionString);
    this.idleCheckMs = options.idleCheckMs ?? 200;
    this.pageSize = options.pageSize ?? 500;
    this.namespace = new StreamNamespace(options.namespace ?? '');
  }

  async append(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    try {
      const result = await this.client.appendToStream(
        this.namespace.stored(streamId),
        events.map((e) => toEventData(e)),
        {
          expectedRevision: toEsdbExpectedRevision(expected),
        },
      );
      this.headCache = null;
      // Servers return the commit position of the last event written; without one, the head
      // is an upper bound, which is the safe side for read-your-writes waits.
      const position = result.position ? fromEsdbPosition(result.position) : await this.headPosition();
      return { nextExpectedRevision: result.nextExpectedRevision, position };
    } catch (error) {
      throw mapEsdbError(error, { streamId, expected, what: 'append' });
    }
  }

  /** In order, stopping at the first refusal (what was written before it stays written). */
  async appendAll(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    const results: AppendResult[] = [];
    for (const { streamId, events, expected } of appends) results.push(await this.append(streamId, events, expected));
    return results;
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    if (options.limit !== undefined && options.limit <= 0) return [];
    const events: RecordedEvent[] = [];
    try {
      const read = this.client.readStream(this.namespace.stored(streamId), {
        direction: backwards ? BACKWARDS : FORWARDS,
        fromRevision: options.fromRevision ?? (backwards ? END : START),
        maxCount: options.limit ?? Number.MAX_SAFE_INTEGER,
      });
      for await (const resolved of read as AsyncIterable<ResolvedEvent>) {
        if (resolved.event) events.push(toRecordedEvent(resolved.event, undefined, this.namespace));
      }
      return events;
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw mapEsdbError(error, { streamId, what: 'readStream' });
    }
  }

  /**
   * The 6.x client reads $all without a server-side filter (only subscriptions take one), so
   * this pages through $all and filters here. Projections use subscribe(), which is filtered
   * on the server.
   */
  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.limit ?? 1000;
    const result: RecordedEvent[] = [];
    if (limit <= 0) return result;
    let from = options.after ?? 0n;
    try {
      for (;;) {
        const page = await this.readAllPage(from, this.pageSize);
        for (const { resolved, position } of page.events) {
          const event = acceptResolved(resolved, options.filter, this.namespace);
          if (event && position > (options.after ?? 0n)) {
            result.push(event);
            if (result.length === limit) return result;
          }
        }
        if (page.exhausted) return result;
        from = page.lastPosition;
      }
    } catch (error) {
      throw mapEsdbError(error, { what: 'readAll' });
    }
  }

  /** One page of $all strictly after `after` (any event, system ones included). */
  private async readAllPage(
    after: bigint,
    size: number,
  ): Promise<{
    events: { resolved: AllStreamResolvedEvent; position: bigint }[];
    lastPosition: bigint;
    exhausted: boolean;
  }> {
    const events: { resolved: AllStreamResolvedEvent; position: bigint }[] = [];
    let lastPosition = after;
    let seen = 0;
    // +1: the start position may be returned again (inclusive read); it is skipped below.
    const read = this.client.readAll({
      direction: FORWARDS,
      fromPosition: toEsdbReadPosition(after),
      maxCount: size + 1,
    });
    for await (const resolved of read as AsyncIterable<AllStreamResolvedEvent>) {
      seen += 1;
      const position = positionOfResolved(resolved as EsdbResolvedEventLike);
      if (position === null || position <= after) continue;
      events.push({ resolved, position });
      lastPosition = position;
    }
    return { events, lastPosition, exhausted: seen < size + 1 || lastPosition === after };
  }

  subscribe(options: SubscribeOptions): Subscription {
    const after = options.after ?? 0n;
    const limit = Math.max(1, options.limit ?? 500);
    const highWater = limit * 2;
    const queue: Queued[] = [];
    let stopped = false;
    let failure: unknown = null;
    let delivered = after; // position of the last event handed to onEvents
    let scanned = after; // the log has been looked at up to here
    let reported: bigint | null = null;
    let wake: (() => void) | null = null;
    const poke = () => wake?.();
    // Live: the server said it caught up and has not said it fell behind since.
    let live = false;
    let lastDataAt = Date.now();

    const filter = toEsdbFilter(options.filter, this.namespace);
    const esdb = this.client.subscribeToAll({
      fromPosition: toEsdbReadPosition(after),
      filter: {
        ...filter,
        checkpointReached: (_subscription, position: Position) => {
          queue.push({ kind: 'checkpoint', position: fromEsdbPosition(position) });
          poke();
        },
      },
    });
    esdb.on('data', (resolved: AllStreamResolvedEvent) => {
      queue.push({ kind: 'event', resolved });
      lastDataAt = Date.now();
      if (queue.length >= highWater) esdb.pause();
      poke();
    });
    // The caught-up signal (servers 23.10+) only makes the check below happen at once; the check
    // itself never depends on it, so older servers fall back to the idle timer.
    esdb.on('caughtUp', () => {
      live = true;
      poke();
    });
    esdb.on('fellBehind', () => {
      live = false;
    });
    esdb.on('error', (error: unknown) => {
      if (!stopped) failure = mapEsdbError(error, { what: 'subscribe' });
      poke();
    });
    esdb.on('end', () => {
      if (!stopped && !failure)
        failure = new StoreUnavailableError('subscribe: EventStoreDB ended the subscription');
      poke();
    });

    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wake = null;
          resolve();
        }
        wake = done;
      });

    /** Takes up to `limit` matching events off the queue, moving `scanned` past the rest. */
    const takeBatch = (): RecordedEvent[] => {
      const batch: RecordedEvent[] = [];
      while (queue.length > 0 && batch.length < limit) {
        const item = queue.shift()!;
        if (item.kind === 'checkpoint') {
          if (item.position > scanned && batch.length === 0) scanned = item.position;
          else if (item.position > scanned) {
            // A checkpoint after events of this batch: keep it for after the batch is handled.
            queue.unshift(item);
            break;
          }
          continue;
        }
        const position = positionOfResolved(item.resolved as EsdbResolvedEventLike);
        if (position === null || position <= delivered) continue;
        const event = acceptResolved(item.resolved as EsdbResolvedEventLike, options.filter, this.namespace);
        if (event) batch.push(event);
        else if (batch.length === 0 && position > scanned) scanned = position;
      }
      if (esdb.isPaused() && queue.length < limit) esdb.resume();
      return batch;
    };

    /**
     * How far the subscription has provably seen: the head of the log, unless an event that
     * matches the filter lies between what was handled and that head (it is on its way).
     */
    const caughtUpPosition = async (): Promise<bigint> => {
      const from = delivered > scanned ? delivered : scanned;
      const head = await this.cachedHead();
      if (head <= from) return from;
      let cursor = from;
      for (;;) {
        const page = await this.readAllPage(cursor, this.pageSize);
        for (const { resolved, position } of page.events) {
          if (position > head) return head;
          if (acceptResolved(resolved as EsdbResolvedEventLike, options.filter, this.namespace))
            return cursor;
          cursor = position;
          scanned = position;
        }
        if (page.exhausted) return cursor;
      }
    };

    const loop = (async () => {
      await Promise.resolve();
      while (!stopped) {
        try {
          if (failure) throw failure;
          const batch = takeBatch();
          if (batch.length > 0) {
            await options.onEvents(batch);
            const last = batch[batch.length - 1].position;
            delivered = last;
            if (last > scanned) scanned = last;
            continue;
          }
          if (queue.length > 0) continue;
          // While catching up the queue runs dry between network reads: only look for the
          // head once the server says it is live, or nothing came for a while.
          if (options.onCaughtUp && (live || Date.now() - lastDataAt >= this.idleCheckMs)) {
            const position = await caughtUpPosition();
            if (!stopped && queue.length === 0 && (reported === null || position > reported)) {
              reported = position;
              options.onCaughtUp(position);
            }
          }
          if (queue.length === 0 && !failure && !stopped) await sleep(this.idleCheckMs);
        } catch (error) {
          stopped = true;
          if (options.onError) options.onError(error);
          else console.error('subscription stopped', error);
        }
      }
      await esdb.unsubscribe().catch(() => undefined);
    })();

    const subscription: Subscription = {
      stop: async () => {
        stopped = true;
        poke();
        this.subscriptions.delete(subscription);
        await loop;
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  /**
   * The newest own event's commit position: $all read backwards, skipping `$` events and, in a
   * namespace, other namespaces' events. The part of the log already looked at is not read again
   * (`headScan`): a namespaced store on a shared server would otherwise re-read every other
   * namespace's events written since its own last one, on every call.
   */
  async headPosition(): Promise<bigint> {
    try {
      const page = this.namespace.prefix ? this.pageSize : 32;
      const known = this.headScan;
      let from: ReadPosition = END;
      let newest: bigint | null = null; // the head of the whole log, as this scan found it
      let last: bigint | null = null; // the oldest position seen so far
      for (;;) {
        let seen = 0;
        const read = this.client.readAll({ direction: BACKWARDS, fromPosition: from, maxCount: page });
        for await (const resolved of read as AsyncIterable<AllStreamResolvedEvent>) {
          seen += 1;
          const event = resolved.event;
          if (!event?.position) continue;
          const position = fromEsdbPosition(event.position);
          if (last !== null && position >= last) continue; // the start position, read again
          last = position;
          from = event.position;
          newest ??= position;
          if (known && position <= known.scannedTo) return this.scanned(newest, known.head);
          if (ownStreamOf(resolved, this.namespace) !== null) return this.scanned(newest, position);
        }
        if (seen < page || last === null) return this.scanned(newest, 0n);
      }
    } catch (error) {
      throw mapEsdbError(error, { what: 'headPosition' });
    }
  }

  /** Remembers how far headPosition has looked (only forward: calls may overlap). */
  private scanned(scannedTo: bigint | null, head: bigint): bigint {
    if (scannedTo !== null && (!this.headScan || scannedTo > this.headScan.scannedTo))
      this.headScan = { scannedTo, head };
    return head;
  }

  /** The head, read at most once per half idle period: a stale head only under-reports. */
  private cachedHead(): Promise<bigint> {
    const now = Date.now();
    if (!this.headCache || now - this.headCache.at > this.idleCheckMs / 2) {
      const value = this.headPosition();
      value.catch(() => (this.headCache = null));
      this.headCache = { at: now, value };
    }
    return this.headCache.value;
  }

  async ping(): Promise<void> {
    try {
      const read = this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 });
      for await (const _ of read as AsyncIterable<unknown>) void _;
    } catch (error) {
      const mapped = mapEsdbError(error, { what: 'ping' });
      throw mapped instanceof StoreUnavailableError
        ? mapped
        : new StoreUnavailableError('ping: EventStoreDB failed', error);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.client.dispose();
  }
}
