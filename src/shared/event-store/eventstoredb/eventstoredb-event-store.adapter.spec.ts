/*
 * The adapter's I/O sequencing against an in-memory stand-in for the 6.x client (no server
 * can run here). The fake mimics what the adapter relies on: inclusive $all reads from a
 * position, exclusive subscriptions, server-side filters, a caught-up signal after the
 * backlog, system events in the log, StreamNotFoundError and WrongExpectedVersionError.
 * The real server is covered by the contract suite when EVENT_STORE_URL is set.
 */
import { PassThrough } from 'node:stream';
import { StreamNotFoundError, WrongExpectedVersionError } from '@eventstore/db-client';
import type { EventStoreDBClient } from '@eventstore/db-client';
import { ConcurrencyError, RecordedEvent } from '../event-store.port';
import { EventStoreDbEventStore } from './eventstoredb-event-store.adapter';

interface Stored {
  streamId: string;
  revision: bigint;
  type: string;
  data: unknown;
  metadata: unknown;
  isJson: true;
  created: Date;
  id: string;
  position: { commit: bigint; prepare: bigint };
}

type Pos = 'start' | 'end' | { commit: bigint; prepare: bigint };

class FakeClient {
  readonly log: Stored[] = [];
  /** Events handed out by readAll, to see what a scan costs. */
  eventsReadFromAll = 0;
  /** The server-side filter of every subscription. */
  readonly subscriptionFilters: unknown[] = [];
  private next = 1000n;
  private readonly subscribers = new Set<(event: Stored) => void>();

  private write(streamId: string, type: string, data: unknown, metadata?: unknown): Stored {
    this.next += 37n; // positions are byte offsets: increasing, not contiguous
    const revision = BigInt(this.log.filter((e) => e.streamId === streamId).length);
    const event: Stored = {
      streamId,
      revision,
      type,
      data,
      metadata,
      isJson: true,
      created: new Date(),
      id: String(this.next),
      position: { commit: this.next, prepare: this.next },
    };
    this.log.push(event);
    for (const notify of this.subscribers) notify(event);
    return event;
  }

  systemEvent(): void {
    this.write('$stats-127.0.0.1:2113', '$statsCollected', {});
  }

  async appendToStream(
    streamId: string,
    events: { type: string; data: unknown; metadata?: unknown }[],
    options: { expectedRevision: unknown },
  ) {
    const current = this.log.filter((e) => e.streamId === streamId).length - 1;
    const expected = options.expectedRevision;
    const ok =
      expected === 'any' ||
      (expected === 'no_stream' && current === -1) ||
      (expected === 'stream_exists' && current >= 0) ||
      (typeof expected === 'bigint' && BigInt(current) === expected);
    if (!ok) {
      throw new WrongExpectedVersionError(undefined, {
        streamName: streamId,
        expected: expected as bigint,
        current: current === -1 ? 'no_stream' : BigInt(current),
      });
    }
    let last!: Stored;
    for (const e of events) last = this.write(streamId, e.type, e.data, e.metadata);
    return { success: true, nextExpectedRevision: last.revision, position: last.position };
  }

  readStream(
    streamId: string,
    options: { direction: string; fromRevision: bigint | 'start' | 'end'; maxCount: number },
  ) {
    const all = this.log.filter((e) => e.streamId === streamId);
    const from = options.fromRevision;
    let selected =
      options.direction === 'backwards'
        ? all.filter((e) => from === 'end' || e.revision <= (from as bigint)).reverse()
        : all.filter((e) => from === 'start' || e.revision >= (from as bigint));
    selected = selected.slice(0, Number(options.maxCount));
    return (async function* () {
      if (all.length === 0) throw new StreamNotFoundError(undefined, streamId);
      for (const event of selected) yield { event };
    })();
  }

  readAll(options: { direction: string; fromPosition: Pos; maxCount: number }) {
    const from = options.fromPosition;
    let selected =
      options.direction === 'backwards'
        ? this.log
            .filter((e) => from === 'end' || (from !== 'start' && e.position.commit <= from.commit))
            .reverse()
        : this.log.filter((e) => from === 'start' || (from !== 'end' && e.position.commit >= from.commit));
    selected = selected.slice(0, Number(options.maxCount));
    const count = () => (this.eventsReadFromAll += 1);
    return (async function* () {
      for (const event of selected) {
        count();
        yield { event, commitPosition: event.position.commit };
      }
    })();
  }

  subscribeToAll(options: {
    fromPosition: Pos;
    filter: { filterOn: string; regex?: string; prefixes?: string[] };
  }) {
    const { filter } = options;
    this.subscriptionFilters.push(filter);
    const matches = (e: Stored) => {
      const subject = filter.filterOn === 'eventType' ? e.type : e.streamId;
      return filter.regex !== undefined
        ? new RegExp(filter.regex).test(subject)
        : filter.prefixes!.some((p) => subject.startsWith(p));
    };
    const from = options.fromPosition;
    const stream = new PassThrough({ objectMode: true, highWaterMark: 4 }) as PassThrough & {
      unsubscribe(): Promise<void>;
    };
    const push = (e: Stored) => {
      if (matches(e)) stream.write({ event: e, commitPosition: e.position.commit });
    };
    this.subscribers.add(push);
    stream.unsubscribe = async () => {
      this.subscribers.delete(push);
      stream.end();
    };
    const backlog = this.log.filter(
      (e) => from === 'start' || (from !== 'end' && e.position.commit > from.commit),
    );
    setImmediate(() => {
      for (const e of backlog) push(e);
      stream.emit('caughtUp');
    });
    return stream;
  }

  async dispose() {}
}

function setup(fake = new FakeClient(), namespace?: string) {
  const store = new EventStoreDbEventStore('esdb://unused', {
    client: fake as unknown as EventStoreDBClient,
    idleCheckMs: 20,
    pageSize: 3,
    namespace,
  });
  return { fake, store };
}

const until = async (condition: () => boolean, what: string) => {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('EventStoreDbEventStore (against an in-memory client)', () => {
  it('appends with expected revisions and reads streams both ways', async () => {
    const { store } = setup();
    const first = await store.append(
      'wallet-1',
      [
        { type: 'A', data: { n: 1 } },
        { type: 'B', data: { n: 2 } },
      ],
      'no_stream',
    );
    expect(first.nextExpectedRevision).toBe(1n);
    await store.append('wallet-1', [{ type: 'C', data: { n: 3 }, metadata: { by: 'x' } }], 1n);
    const forwards = await store.readStream('wallet-1');
    expect(forwards.map((e) => [e.type, e.revision])).toEqual([
      ['A', 0n],
      ['B', 1n],
      ['C', 2n],
    ]);
    expect(forwards[2].metadata).toEqual({ by: 'x' });
    expect(forwards[0].metadata).toEqual({});
    expect(forwards[1].position).toBeGreaterThan(forwards[0].position);
    expect(first.position).toBe(forwards[1].position);
    const backwards = await store.readStream('wallet-1', {
      direction: 'backwards',
      fromRevision: 1n,
      limit: 5,
    });
    expect(backwards.map((e) => e.revision)).toEqual([1n, 0n]);
    expect((await store.readStream('wallet-1', { fromRevision: 1n, limit: 1 })).map((e) => e.type)).toEqual([
      'B',
    ]);
    expect(await store.readStream('wallet-none')).toEqual([]);
  });

  it('raises ConcurrencyError with the actual revision', async () => {
    const { store } = setup();
    await store.append('wallet-1', [{ type: 'A', data: {} }], 'no_stream');
    await expect(store.append('wallet-1', [{ type: 'A', data: {} }], 'no_stream')).rejects.toMatchObject({
      name: 'ConcurrencyError',
      streamId: 'wallet-1',
      expected: 'no_stream',
      actual: 0n,
    });
    const error = await store.append('wallet-2', [{ type: 'A', data: {} }], 'stream_exists').catch((e) => e);
    expect(error).toBeInstanceOf(ConcurrencyError);
    expect(error.actual).toBe('no_stream');
  });

  it('reads $all after a position, in pages, without system events, filtered', async () => {
    const { fake, store } = setup();
    fake.systemEvent();
    for (let i = 0; i < 4; i++) {
      await store.append(`wallet-${i}`, [{ type: 'W', data: { i } }], 'any');
      fake.systemEvent();
      await store.append(`account-${i}`, [{ type: 'A', data: { i } }], 'any');
    }
    const all = await store.readAll();
    expect(all).toHaveLength(8);
    expect(all.every((e) => !e.streamId.startsWith('$'))).toBe(true);
    const after = await store.readAll({ after: all[2].position, limit: 3 });
    expect(after.map((e) => e.position)).toEqual(all.slice(3, 6).map((e) => e.position));
    const wallets = await store.readAll({ filter: { streamPrefixes: ['wallet-'] } });
    expect(wallets.map((e) => e.streamId)).toEqual(['wallet-0', 'wallet-1', 'wallet-2', 'wallet-3']);
    expect(await store.readAll({ filter: { eventTypes: ['A'] }, after: all[5].position })).toHaveLength(1);
  });

  it('reports the newest non-system position as the head', async () => {
    const { fake, store } = setup();
    expect(await store.headPosition()).toBe(0n);
    fake.systemEvent();
    expect(await store.headPosition()).toBe(0n);
    const { position } = await store.append('wallet-1', [{ type: 'A', data: {} }], 'any');
    for (let i = 0; i < 10; i++) fake.systemEvent();
    expect(await store.headPosition()).toBe(position);
  });

  it('subscribes: batches in order, one handler call at a time, then caught up, then live', async () => {
    const { fake, store } = setup();
    for (let i = 0; i < 7; i++) {
      await store.append('wallet-1', [{ type: 'W', data: { i } }], 'any');
      if (i % 2) fake.systemEvent();
    }
    const seen: RecordedEvent[] = [];
    const batchSizes: number[] = [];
    const caughtUp: bigint[] = [];
    const handledAtReport: number[] = [];
    let running = 0;
    let overlapped = false;
    const subscription = store.subscribe({
      limit: 3,
      onEvents: async (events) => {
        running += 1;
        if (running > 1) overlapped = true;
        batchSizes.push(events.length);
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.push(...events);
        running -= 1;
      },
      onCaughtUp: (position) => {
        caughtUp.push(position);
        handledAtReport.push(seen.length);
      },
    });
    const head = await store.headPosition();
    await until(() => caughtUp.some((p) => p >= head), 'caught up');
    expect(seen.map((e) => (e.data as { i: number }).i)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(Math.max(...batchSizes)).toBeLessThanOrEqual(3);
    expect(overlapped).toBe(false);
    // Caught up is never reported past an event that was not handled yet.
    caughtUp.forEach((position, i) => {
      expect(seen.filter((e) => e.position <= position).length).toBeLessThanOrEqual(handledAtReport[i]);
    });
    expect(caughtUp).toEqual([...caughtUp].sort((a, b) => (a < b ? -1 : 1)));

    const live = await store.append('wallet-2', [{ type: 'W', data: { i: 7 } }], 'any');
    await until(() => seen.length === 8, 'live event');
    expect(seen[7].position).toBe(live.position);
    await subscription.stop();
    await store.append('wallet-3', [{ type: 'W', data: { i: 8 } }], 'any');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toHaveLength(8);
  });

  it('subscribes from a position (exclusive) with a filter, and reports how far it looked', async () => {
    const { store } = setup();
    const a = await store.append('account-1', [{ type: 'A', data: {} }], 'any');
    await store.append('account-2', [{ type: 'A', data: {} }], 'any');
    await store.append('wallet-1', [{ type: 'W', data: {} }], 'any');
    const last = await store.append('wallet-2', [{ type: 'W', data: {} }], 'any');
    const seen: RecordedEvent[] = [];
    const caughtUp: bigint[] = [];
    const subscription = store.subscribe({
      after: a.position,
      filter: { streamPrefixes: ['account-'] },
      onEvents: (events) => void seen.push(...events),
      onCaughtUp: (position) => caughtUp.push(position),
    });
    // The last events do not match: caught up must still reach the head, or a
    // read-your-writes wait on this projection would never end.
    await until(() => caughtUp.some((p) => p >= last.position), 'caught up to the head');
    expect(seen.map((e) => e.streamId)).toEqual(['account-2']);
    await subscription.stop();
  });

  it('stops and reports when a handler throws', async () => {
    const { store } = setup();
    await store.append('wallet-1', [{ type: 'W', data: {} }], 'any');
    const errors: unknown[] = [];
    let calls = 0;
    const subscription = store.subscribe({
      onEvents: () => {
        calls += 1;
        throw new Error('projection bug');
      },
      onError: (error) => errors.push(error),
    });
    await until(() => errors.length === 1, 'the error');
    await store.append('wallet-1', [{ type: 'W', data: {} }], 'any');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toBe(1);
    expect((errors[0] as Error).message).toBe('projection bug');
    await subscription.stop();
    await store.close();
  });
});

describe('EventStoreDbEventStore with store namespaces (STORE_NAMESPACE) on one server', () => {
  function shared() {
    const fake = new FakeClient();
    return {
      fake,
      a: setup(fake, 't_a').store,
      b: setup(fake, 't_b').store,
      plain: setup(fake).store,
    };
  }

  it('keeps streams, revisions and conflicts apart, under port names', async () => {
    const { fake, a, b } = shared();
    await a.append('wallet-1', [{ type: 'A', data: {} }], 'no_stream');
    const second = await b.append('wallet-1', [{ type: 'B', data: {} }], 'no_stream');
    expect(second.nextExpectedRevision).toBe(0n);
    expect(fake.log.map((e) => e.streamId)).toEqual(['t_a:wallet-1', 't_b:wallet-1']);
    const read = await a.readStream('wallet-1');
    expect(read.map((e) => [e.streamId, e.type, e.revision])).toEqual([['wallet-1', 'A', 0n]]);
    await expect(a.append('wallet-1', [{ type: 'A', data: {} }], 'no_stream')).rejects.toMatchObject({
      name: 'ConcurrencyError',
      streamId: 'wallet-1',
      actual: 0n,
    });
    expect(await b.readStream('wallet-2')).toEqual([]);
  });

  it('reads and follows only its own part of $all', async () => {
    const { fake, a, b, plain } = shared();
    for (let i = 0; i < 3; i++) {
      await a.append(`wallet-${i}`, [{ type: 'W', data: { i } }], 'any');
      await b.append(`wallet-${i}`, [{ type: 'W', data: { i } }], 'any');
      fake.systemEvent();
    }
    const last = await b.append('account-1', [{ type: 'A', data: {} }], 'any');
    expect((await a.readAll()).map((e) => e.streamId)).toEqual(['wallet-0', 'wallet-1', 'wallet-2']);
    expect(await a.readAll({ filter: { eventTypes: ['A'] } })).toEqual([]);
    expect((await b.readAll({ filter: { eventTypes: ['A'] } })).map((e) => e.streamId)).toEqual([
      'account-1',
    ]);
    expect(await plain.readAll({ filter: { streamPrefixes: ['wallet-'] } })).toEqual([]);

    const seen: RecordedEvent[] = [];
    const caughtUp: bigint[] = [];
    const subscription = a.subscribe({
      filter: { eventTypes: ['W'] },
      onEvents: (events) => void seen.push(...events),
      onCaughtUp: (position) => caughtUp.push(position),
    });
    // The server sends none of the other namespaces' events.
    expect(fake.subscriptionFilters).toEqual([expect.objectContaining({ prefixes: ['t_a:'] })]);
    const head = await a.headPosition();
    await until(() => caughtUp.some((p) => p >= head), 'caught up');
    expect(seen.map((e) => [e.streamId, (e.data as { i: number }).i])).toEqual([
      ['wallet-0', 0],
      ['wallet-1', 1],
      ['wallet-2', 2],
    ]);
    expect(head).toBeLessThan(last.position);
    await b.append('wallet-9', [{ type: 'W', data: { i: 9 } }], 'any');
    const live = await a.append('wallet-3', [{ type: 'W', data: { i: 3 } }], 'any');
    await until(() => seen.length === 4, 'its own live event');
    expect(seen[3].position).toBe(live.position);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toHaveLength(4);
    await subscription.stop();
  });

  it("reports its own namespace's head, reading each part of the log once", async () => {
    const { fake, a, b } = shared();
    await b.append('wallet-1', [{ type: 'B', data: {} }], 'any');
    expect(await a.headPosition()).toBe(0n);
    const own = await a.append('wallet-1', [{ type: 'A', data: {} }], 'any');
    for (let i = 0; i < 20; i++) {
      await b.append('wallet-1', [{ type: 'B', data: {} }], 'any');
      if (i % 5 === 0) fake.systemEvent();
    }
    expect(await a.headPosition()).toBe(own.position);
    const before = fake.eventsReadFromAll;
    expect(await a.headPosition()).toBe(own.position);
    // The second call stops where the first began: it reads the newest event (and the page it
    // is in) again, not the 24 events of others before it.
    expect(fake.eventsReadFromAll - before).toBeLessThanOrEqual(3);
    await b.append('wallet-1', [{ type: 'B', data: {} }], 'any');
    expect(await a.headPosition()).toBe(own.position);
    const newer = await a.append('wallet-2', [{ type: 'A', data: {} }], 'any');
    await b.append('wallet-1', [{ type: 'B', data: {} }], 'any');
    expect(await a.headPosition()).toBe(newer.position);
    expect(await b.headPosition()).toBeGreaterThan(newer.position);
  });
});
