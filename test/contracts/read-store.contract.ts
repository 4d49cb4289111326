/*
 * The read store contract: what every adapter of the ReadStore port must do, written once and
 * run against each adapter (SQLite always; MongoDB when MONGODB_URL is set), followed by the
 * ProjectionRunner's behaviour on that read store and an event store.
 *
 * Like the event store contract, it never assumes it has the stores to itself: collections,
 * projections, streams and event types carry a random token per test.
 */
import type { EventStore, RecordedEvent } from '../../src/shared/event-store/event-store.port';
import { StoreUnavailableError } from '../../src/shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../src/shared/projections/projection';
import { ProjectionRunner, ProjectionRunnerOptions } from '../../src/shared/projections/projection-runner';
import type { DocumentWrite, ListQuery, ReadStore } from '../../src/shared/read-store/read-store.port';
import { gate, sleep, unique, waitUntil } from './support/wait';

export interface ReadStoreFixture {
  readonly store: ReadStore;
  /** The event store the ProjectionRunner cases read from (any adapter; a fresh one is best). */
  readonly events: EventStore;
  /** Closes both stores and removes their files. */
  cleanup(): Promise<void>;
}

export type ReadStoreFactory = () => Promise<ReadStoreFixture>;

const PATIENCE_MS = 30_000;

export function describeReadStoreContract(name: string, factory: ReadStoreFactory): void {
  describe(`ReadStore contract: ${name}`, () => {
    let fixture: ReadStoreFixture | undefined;
    let store: ReadStore;
    let ns: string;
    let docs: string;

    beforeEach(async () => {
      fixture = await factory();
      store = fixture.store;
      ns = unique();
      docs = `docs_${ns}`;
    });

    afterEach(async () => {
      const done = fixture;
      fixture = undefined;
      await done?.cleanup();
    });

    const put = (id: string, doc: unknown, partition?: string, sort?: string): DocumentWrite => ({
      op: 'put',
      collection: docs,
      id,
      doc,
      ...(partition !== undefined ? { index: { partition, sort: sort ?? '' } } : {}),
    });
    const del = (id: string): DocumentWrite => ({ op: 'delete', collection: docs, id });

    describe('documents and checkpoints', () => {
      it('has no checkpoint for a projection that never ran', async () => {
        expect(await store.checkpoint(`never_${ns}`)).toBeNull();
      });

      it('commits against an expected previous checkpoint only while it still holds (two processes, one projection)', async () => {
        const p = `cas_${ns}`;
        expect(await store.commit(p, [put('cas_1', { v: 1 })], 10n, null)).toBe(true);
        // A second process that also started from "no checkpoint" loses and writes nothing.
        expect(await store.commit(p, [put('cas_1', { v: 99 })], 12n, null)).toBe(false);
        expect(await store.checkpoint(p)).toBe(10n);
        expect(await store.get(docs, 'cas_1')).toEqual({ v: 1 });
        expect(await store.commit(p, [put('cas_1', { v: 2 })], 20n, 10n)).toBe(true);
        expect(await store.commit(p, [put('cas_1', { v: 98 })], 25n, 10n)).toBe(false);
        expect(await store.checkpoint(p)).toBe(20n);
        expect(await store.get(docs, 'cas_1')).toEqual({ v: 2 });
      });

      it('keeps a checkpoint as an exact bigint, per projection', async () => {
        await store.commit(`p1_${ns}`, [], 5n);
        expect(await store.checkpoint(`p1_${ns}`)).toBe(5n);
        const huge = 2n ** 53n + 1n; // not representable as a double
        await store.commit(`p2_${ns}`, [], huge);
        expect(await store.checkpoint(`p2_${ns}`)).toBe(huge);
        await store.commit(`p1_${ns}`, [], 9_000_000_000_000_000_001n);
        expect(await store.checkpoint(`p1_${ns}`)).toBe(9_000_000_000_000_000_001n);
        expect(await store.checkpoint(`p2_${ns}`)).toBe(huge);
        await store.commit(`p3_${ns}`, [], 0n);
        expect(await store.checkpoint(`p3_${ns}`)).toBe(0n);
      });

      it('puts, replaces and deletes documents through commit; get answers null for a missing one', async () => {
        const doc = {
          id: 'msg_1',
          credits: 3,
          tags: ['a', 'b'],
          nested: { ok: true, none: null },
          text: 'ünïcødé ✓',
        };
        await store.commit(`p_${ns}`, [put('msg_1', doc)], 1n);
        expect(await store.get(docs, 'msg_1')).toEqual(doc);
        expect(await store.get(docs, 'msg_2')).toBeNull();
        expect(await store.get(`other_${ns}`, 'msg_1')).toBeNull();

        // A put replaces the whole document, it does not merge.
        await store.commit(`p_${ns}`, [put('msg_1', { id: 'msg_1', credits: 4 })], 2n);
        expect(await store.get(docs, 'msg_1')).toEqual({ id: 'msg_1', credits: 4 });

        await store.commit(`p_${ns}`, [del('msg_1'), del('never_there')], 3n);
        expect(await store.get(docs, 'msg_1')).toBeNull();
        expect(await store.checkpoint(`p_${ns}`)).toBe(3n);
      });

      it('applies the writes of one commit in order', async () => {
        await store.commit(
          `p_${ns}`,
          [put('a', { v: 1 }), del('a'), put('b', { v: 1 }), del('b'), put('b', { v: 2 })],
          1n,
        );
        expect(await store.get(docs, 'a')).toBeNull();
        expect(await store.get(docs, 'b')).toEqual({ v: 2 });
      });

      it('stores a document as JSON would, as it was when the commit was asked for (a toJSON value included)', async () => {
        // A projection may keep a live object in a document (the campaigns' tally: bytes that
        // serialize to base64) and change it after the commit: what is stored is the JSON taken
        // when commit() was called, and it reads back as plain JSON.
        const bytes = new Uint8Array([1, 2, 3]);
        const tally = { toJSON: () => Buffer.from(bytes).toString('base64') };
        const committed = store.commit(`p_${ns}`, [put('t', { id: 't', tally })], 1n);
        bytes[0] = 9;
        await committed;
        expect(await store.get(docs, 't')).toEqual({ id: 't', tally: 'AQID' });
      });

      it('keeps collections apart', async () => {
        await store.commit(
          `p_${ns}`,
          [put('x', { in: 'docs' }), { op: 'put', collection: `more_${ns}`, id: 'x', doc: { in: 'more' } }],
          1n,
        );
        expect(await store.get(docs, 'x')).toEqual({ in: 'docs' });
        expect(await store.get(`more_${ns}`, 'x')).toEqual({ in: 'more' });
      });

      it('answers ping', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
      });
    });

    describe('list', () => {
      beforeEach(async () => {
        await store.commit(
          `p_${ns}`,
          [
            put('m3', { id: 'm3' }, 'wal_1', '2024-01-03T00:00:00.000Z'),
            put('m1', { id: 'm1' }, 'wal_1', '2024-01-01T00:00:00.000Z'),
            put('m5', { id: 'm5' }, 'wal_1', '2024-01-05T00:00:00.000Z'),
            put('m2', { id: 'm2' }, 'wal_1', '2024-01-02T00:00:00.000Z'),
            put('m4', { id: 'm4' }, 'wal_1', '2024-01-04T00:00:00.000Z'),
            put('n1', { id: 'n1' }, 'wal_2', '2024-01-01T12:00:00.000Z'),
            put('loose', { id: 'loose' }), // no index: never listed
            {
              op: 'put',
              collection: `more_${ns}`,
              id: 'o1',
              doc: { id: 'o1' },
              index: { partition: 'wal_1', sort: '2024' },
            },
          ],
          1n,
        );
      });
      const ids = async (query: Partial<ListQuery> & Pick<ListQuery, 'order'>) =>
        (await store.list<{ id: string }>(docs, { partition: 'wal_1', limit: 100, ...query })).map(
          (d) => d.id,
        );

      it('lists one partition of one collection by sort key, ascending or descending', async () => {
        expect(await ids({ order: 'asc' })).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
        expect(await ids({ order: 'desc' })).toEqual(['m5', 'm4', 'm3', 'm2', 'm1']);
        expect(await ids({ order: 'asc', partition: 'wal_2' })).toEqual(['n1']);
        expect(await ids({ order: 'asc', partition: 'wal_none' })).toEqual([]);
        expect(await ids({ order: 'asc', limit: 2 })).toEqual(['m1', 'm2']);
        expect(await ids({ order: 'desc', limit: 1 })).toEqual(['m5']);
      });

      it('pages with afterSort (exclusive) in both directions without gaps or repeats', async () => {
        const page = (order: 'asc' | 'desc', afterSort?: string) =>
          store.list<{ id: string }>(docs, { partition: 'wal_1', order, limit: 2, afterSort });
        const sortOf = (id: string) => `2024-01-0${id.slice(1)}T00:00:00.000Z`;
        for (const [order, expected] of [
          ['asc', [['m1', 'm2'], ['m3', 'm4'], ['m5'], []]],
          ['desc', [['m5', 'm4'], ['m3', 'm2'], ['m1'], []]],
        ] as const) {
          let after: string | undefined;
          for (const expectedPage of expected) {
            const got = (await page(order, after)).map((d) => d.id);
            expect(got).toEqual(expectedPage);
            if (got.length) after = sortOf(got[got.length - 1]);
          }
        }
        expect((await page('asc', '2024-01-02T12:00:00.000Z')).map((d) => d.id)).toEqual(['m3', 'm4']);
        expect((await page('desc', '2024-01-02T12:00:00.000Z')).map((d) => d.id)).toEqual(['m2', 'm1']);
      });

      it('lists only the sort keys that start with a prefix, paged both ways, whatever characters follow', async () => {
        const keys = [
          '+23324',
          '+233241',
          '+2332410',
          '+233241\u0001x',
          '+233241é',
          '+233241😀',
          '+233242',
          '+23325',
          'kofi',
          'kofi\u0001a',
          'kofí',
        ];
        await store.commit(
          `p_${ns}`,
          keys.map((key, i) => put(`k${i}`, { key }, 'search', key)),
          1n,
        );
        const page = async (sortPrefix: string, order: 'asc' | 'desc', limit = 20, afterSort?: string) =>
          (
            await store.list<{ key: string }>(docs, {
              partition: 'search',
              order,
              limit,
              sortPrefix,
              afterSort,
            })
          ).map((d) => d.key);
        const expected = ['+233241', '+2332410', '+233241\u0001x', '+233241é', '+233241😀'];
        expect(new Set(await page('+233241', 'asc'))).toEqual(new Set(expected));
        expect((await page('+233241', 'asc')).length).toBe(5);
        expect(await page('+233241', 'desc')).toEqual([...(await page('+233241', 'asc'))].reverse());
        expect(await page('kofi', 'asc')).toEqual(['kofi', 'kofi\u0001a']);
        expect(await page('+2339', 'asc')).toEqual([]);
        // Paging with a cursor stays inside the range, in both directions.
        const ascending = await page('+233241', 'asc');
        expect(await page('+233241', 'asc', 2, ascending[1])).toEqual(ascending.slice(2, 4));
        expect(await page('+233241', 'desc', 2, ascending[3])).toEqual([ascending[2], ascending[1]]);
      });

      it('counts the documents one partition lists', async () => {
        expect(await store.count(docs, 'wal_1')).toBe(5);
        expect(await store.count(docs, 'wal_2')).toBe(1);
        expect(await store.count(docs, 'wal_none')).toBe(0);
        expect(await store.count(`more_${ns}`, 'wal_1')).toBe(1);
        await store.commit(`p_${ns}`, [del('m1'), put('m2', { id: 'm2' }, 'wal_2', '2024')], 2n);
        expect(await store.count(docs, 'wal_1')).toBe(3);
        expect(await store.count(docs, 'wal_2')).toBe(2);
      });

      it('follows re-indexed, unindexed and deleted documents, and lists an empty sort key', async () => {
        await store.commit(
          `p_${ns}`,
          [
            put('m1', { id: 'm1' }, 'wal_1', '2024-01-09T00:00:00.000Z'), // moves to the end
            put('m2', { id: 'm2' }, 'wal_2', '2024-01-02T00:00:00.000Z'), // moves partition
            put('m3', { id: 'm3' }), // loses its index
            del('m4'),
            put('m0', { id: 'm0' }, 'wal_1', ''),
          ],
          2n,
        );
        expect(await ids({ order: 'asc' })).toEqual(['m0', 'm5', 'm1']);
        expect(await ids({ order: 'desc' })).toEqual(['m1', 'm5', 'm0']);
        expect(await ids({ order: 'asc', partition: 'wal_2' })).toEqual(['n1', 'm2']);
      });
    });

    describe('commit atomicity and reset', () => {
      it('moves the checkpoint and the documents together, or neither', async () => {
        const p = `p_${ns}`;
        await store.commit(p, [put('a', { v: 1 }, 'part', '1')], 10n);
        expect(await store.checkpoint(p)).toBe(10n);
        expect(await store.get(docs, 'a')).toEqual({ v: 1 });

        // A write that cannot be stored (a cycle) fails the whole commit, earlier writes included.
        const cyclic: Record<string, unknown> = { name: 'cyclic' };
        cyclic.self = cyclic;
        await expect(
          store.commit(
            p,
            [put('a', { v: 2 }, 'part', '1'), put('b', { v: 1 }, 'part', '2'), put('c', cyclic)],
            20n,
          ),
        ).rejects.toBeDefined();
        expect(await store.checkpoint(p)).toBe(10n);
        expect(await store.get(docs, 'a')).toEqual({ v: 1 });
        expect(await store.get(docs, 'b')).toBeNull();
        expect(await store.list(docs, { partition: 'part', order: 'asc', limit: 10 })).toEqual([{ v: 1 }]);

        // And the store still works afterwards.
        await store.commit(p, [put('b', { v: 1 }, 'part', '2')], 20n);
        expect(await store.checkpoint(p)).toBe(20n);
        expect(await store.list(docs, { partition: 'part', order: 'asc', limit: 10 })).toEqual([
          { v: 1 },
          { v: 1 },
        ]);
      });

      it("with 'previous', commits only while the stored checkpoint still equals it (compare-and-set)", async () => {
        const p = `p_${ns}`;
        expect(await store.commit(`other_${ns}`, [], 3n)).toBe(true); // unconditional
        expect(await store.commit(p, [put('a', { v: 1 })], 5n, null)).toBe(true);
        // A second writer that also started from "never ran" lost the race: nothing of it lands.
        expect(await store.commit(p, [put('a', { v: 99 }), put('z', { v: 99 })], 6n, null)).toBe(false);
        expect(await store.checkpoint(p)).toBe(5n);
        expect(await store.get(docs, 'a')).toEqual({ v: 1 });
        expect(await store.get(docs, 'z')).toBeNull();
        // Stale and future expectations fail alike; the right one succeeds.
        expect(await store.commit(p, [put('a', { v: 2 })], 9n, 4n)).toBe(false);
        expect(await store.commit(p, [put('a', { v: 2 })], 9n, 6n)).toBe(false);
        expect(await store.commit(p, [put('a', { v: 2 })], 9n, 5n)).toBe(true);
        expect(await store.checkpoint(p)).toBe(9n);
        expect(await store.get(docs, 'a')).toEqual({ v: 2 });
        // Compared as exact bigints.
        const huge = 2n ** 53n + 1n;
        expect(await store.commit(p, [], huge, 9n)).toBe(true);
        expect(await store.commit(p, [], huge + 1n, huge - 1n)).toBe(false);
        expect(await store.commit(p, [], huge + 1n, huge)).toBe(true);
      });

      it("reset forgets a projection's collections and checkpoint, and nothing else", async () => {
        const mine = `mine_${ns}`;
        const other = `other_${ns}`;
        const also = `also_${ns}`;
        const shared = `shared_${ns}`;
        await store.commit(
          mine,
          [
            { op: 'put', collection: docs, id: 'a', doc: { v: 1 }, index: { partition: 'x', sort: '1' } },
            { op: 'put', collection: also, id: 'b', doc: { v: 2 } },
          ],
          7n,
        );
        await store.commit(other, [{ op: 'put', collection: shared, id: 'c', doc: { v: 3 } }], 9n);
        await store.reset(mine, [docs, also]);
        expect(await store.checkpoint(mine)).toBeNull();
        expect(await store.get(docs, 'a')).toBeNull();
        expect(await store.get(also, 'b')).toBeNull();
        expect(await store.list(docs, { partition: 'x', order: 'asc', limit: 10 })).toEqual([]);
        expect(await store.checkpoint(other)).toBe(9n);
        expect(await store.get(shared, 'c')).toEqual({ v: 3 });

        // A reset of a projection that never ran is harmless.
        await store.reset(`never_${ns}`, [`nothing_${ns}`]);
        // After a reset the projection starts over.
        await store.commit(mine, [{ op: 'put', collection: docs, id: 'a', doc: { v: 4 } }], 1n);
        expect(await store.checkpoint(mine)).toBe(1n);
        expect(await store.get(docs, 'a')).toEqual({ v: 4 });
      });
    });

    describeProjectionRunner(
      () => fixture,
      () => ns,
    );
  });
}

// ---------------------------------------------------------------------------------------------
// The ProjectionRunner on this read store and an event store.

interface Entry {
  readonly stream: string;
  readonly revision: string;
  readonly type: string;
  readonly amount: number;
}
interface Total {
  readonly count: number;
  readonly sum: number;
}

/**
 * A read model with one document per event and one running total per stream, incremented per
 * event: a total that is off shows an event applied twice (or skipped) in the read store.
 */
class LedgerProjection implements Projection {
  readonly name: string;
  readonly collections: readonly string[];
  readonly filter;
  readonly entries: string;
  readonly totals: string;
  calls = 0;
  /** Throws for an event when this says so (checked on every call). */
  failWhen: ((event: RecordedEvent, call: number) => boolean) | null = null;
  /** Holds every apply until opened. */
  hold: Promise<void> | null = null;

  constructor(ns: string, suffix = '', filter?: Projection['filter']) {
    this.name = `ledger${suffix}_${ns}`;
    this.entries = `entries${suffix}_${ns}`;
    this.totals = `totals${suffix}_${ns}`;
    this.collections = [this.entries, this.totals];
    this.filter = filter ?? { streamPrefixes: [`w${ns}-`] };
  }

  async apply(event: RecordedEvent, view: ProjectionView): Promise<void> {
    this.calls++;
    if (this.hold) await this.hold;
    if (this.failWhen?.(event, this.calls))
      throw new Error(`ledger failed on ${event.streamId}@${event.revision}`);
    const amount = (event.data as { amount?: number }).amount ?? 0;
    const entry: Entry = {
      stream: event.streamId,
      revision: String(event.revision),
      type: event.type,
      amount,
    };
    view.put(this.entries, `${event.streamId}@${event.revision}`, entry, {
      partition: event.streamId,
      sort: String(event.revision).padStart(12, '0'),
    });
    const total = (await view.get<Total>(this.totals, event.streamId)) ?? { count: 0, sum: 0 };
    view.put(this.totals, event.streamId, { count: total.count + 1, sum: total.sum + amount });
  }
}

function describeProjectionRunner(getFixture: () => ReadStoreFixture | undefined, getNs: () => string): void {
  describe('ProjectionRunner on this read store', () => {
    let events: EventStore;
    let store: ReadStore;
    let ns: string;
    let runners: ProjectionRunner[];
    let failures: string[];

    beforeEach(() => {
      const fixture = getFixture();
      if (!fixture) throw new Error('no read store fixture');
      events = fixture.events;
      store = fixture.store;
      ns = getNs();
      runners = [];
      failures = [];
    });

    afterEach(async () => {
      for (const runner of runners) await runner.stop();
    });

    function runner(projections: Projection[], options: ProjectionRunnerOptions = {}): ProjectionRunner {
      const created = new ProjectionRunner(events, store, projections, {
        retryDelayMs: 20,
        log: (message) => failures.push(message),
        ...options,
      });
      runners.push(created);
      return created;
    }

    async function deposit(stream: string, ...amounts: number[]): Promise<bigint> {
      const result = await events.append(
        `w${ns}-${stream}`,
        amounts.map((amount) => ({ type: 'Deposited', data: { amount } })),
        'any',
      );
      return result.position;
    }

    const total = (ledger: LedgerProjection, stream: string) =>
      store.get<Total>(ledger.totals, `w${ns}-${stream}`);
    const entries = (ledger: LedgerProjection, stream: string) =>
      store.list<Entry>(ledger.entries, { partition: `w${ns}-${stream}`, order: 'asc', limit: 1000 });

    it('projects the events already in the log, then live ones', async () => {
      await deposit('1', 5, 10);
      const before = await deposit('2', 1);
      const ledger = new LedgerProjection(ns);
      const r = runner([ledger]);
      await r.start();
      await r.waitFor(before, null, PATIENCE_MS);
      expect(await total(ledger, '1')).toEqual({ count: 2, sum: 15 });
      expect(await total(ledger, '2')).toEqual({ count: 1, sum: 1 });
      expect((await entries(ledger, '1')).map((e) => e.revision)).toEqual(['0', '1']);

      const live = await deposit('1', 100);
      await r.waitFor(live, [ledger.name], PATIENCE_MS);
      expect(await total(ledger, '1')).toEqual({ count: 3, sum: 115 });
      expect(r.positions()[ledger.name]).toBeGreaterThanOrEqual(live);
      expect(await store.checkpoint(ledger.name)).toBe(live);
    });

    it('waitFor resolves at once when reached and rejects with StoreUnavailableError when not reached in time', async () => {
      const ledger = new LedgerProjection(ns);
      const first = await deposit('1', 1);
      const r = runner([ledger]);
      await r.start();
      await r.waitFor(first, null, PATIENCE_MS);
      await expect(r.waitFor(first, null, 1)).resolves.toBeUndefined();

      const held = gate();
      ledger.hold = held.promise;
      try {
        const second = await deposit('1', 2);
        await expect(r.waitFor(second, null, 300)).rejects.toBeInstanceOf(StoreUnavailableError);
        expect(await total(ledger, '1')).toEqual({ count: 1, sum: 1 });
        const waiting = r.waitFor(second, null, PATIENCE_MS);
        held.open();
        await waiting;
        expect(await total(ledger, '1')).toEqual({ count: 2, sum: 3 });
      } finally {
        held.open();
        ledger.hold = null;
      }
    });

    it('a projection that throws restarts from its checkpoint and applies every event once to the read store', async () => {
      const ledger = new LedgerProjection(ns);
      let failed = 0;
      // Fails the first two times it meets revision 4 of stream 1, mid-batch.
      ledger.failWhen = (event) => event.streamId === `w${ns}-1` && event.revision === 4n && failed++ < 2;
      for (let i = 0; i < 8; i++) await deposit('1', i + 1);
      await deposit('2', 100, 200, 300);
      const head = await deposit('1', 1000);
      const r = runner([ledger], { batchSize: 3 });
      await r.start();
      await r.waitFor(head, null, PATIENCE_MS);
      expect(failed).toBeGreaterThanOrEqual(2);
      expect(failures.length).toBeGreaterThanOrEqual(2);
      expect(await total(ledger, '1')).toEqual({ count: 9, sum: 36 + 1000 });
      expect(await total(ledger, '2')).toEqual({ count: 3, sum: 600 });
      expect((await entries(ledger, '1')).map((e) => e.revision)).toEqual([
        '0',
        '1',
        '2',
        '3',
        '4',
        '5',
        '6',
        '7',
        '8',
      ]);
      expect(ledger.calls).toBeGreaterThan(12); // some events really were applied again
    });

    it("runs a batch's side effects together before its checkpoint, and the whole batch again when one fails", async () => {
      for (let i = 0; i < 4; i++) await deposit('fx', i + 1);
      const head = await deposit('fx', 5);
      const started: number[] = [];
      let running = 0;
      let overlapped = false;
      let failOnce = true;
      let checkpointWhileRunning: bigint | null | undefined;
      const effects: Projection = {
        name: `effects${ns}`,
        collections: [],
        filter: { streamPrefixes: [`w${ns}-fx`] },
        apply(event, view) {
          view.afterBatch(async () => {
            started.push(Number(event.revision));
            running++;
            overlapped ||= running > 1;
            checkpointWhileRunning = await store.checkpoint(`effects${ns}`);
            await sleep(5);
            running--;
            if (event.revision === 3n && failOnce) {
              failOnce = false;
              throw new Error('effect failed');
            }
          });
        },
      };
      const r = runner([effects], { batchSize: 10 });
      await r.start();
      await r.waitFor(head, null, PATIENCE_MS);
      expect(overlapped).toBe(true); // the batch's effects ran side by side
      expect(checkpointWhileRunning ?? null).toBeNull(); // nothing committed while they ran
      expect(failures).toHaveLength(1);
      // All five ran, then all five again after the failure: at-least-once, never skipped.
      expect(started.slice(0, 5)).toEqual([0, 1, 2, 3, 4]);
      expect(started.slice(5)).toEqual([0, 1, 2, 3, 4]);
      expect(await store.checkpoint(`effects${ns}`)).toBe(head);
    });

    it('a new runner continues from the stored checkpoint without applying anything twice', async () => {
      const ledger = new LedgerProjection(ns);
      const first = await deposit('1', 1, 2, 3);
      const r1 = runner([ledger]);
      await r1.start();
      await r1.waitFor(first, null, PATIENCE_MS);
      await r1.stop();

      const later = await deposit('1', 4);
      const ledger2 = new LedgerProjection(ns);
      const r2 = runner([ledger2]);
      await r2.start();
      await r2.waitFor(later, null, PATIENCE_MS);
      expect(await total(ledger2, '1')).toEqual({ count: 4, sum: 10 });
      expect(ledger2.calls).toBe(1);
    });

    it('waitFor called before start() resolves once the runner has started from a checkpoint already past it', async () => {
      const ledger = new LedgerProjection(ns);
      const position = await deposit('1', 1);
      const r1 = runner([ledger]);
      await r1.start();
      await r1.waitFor(position, null, PATIENCE_MS);
      await r1.stop();

      const r2 = runner([new LedgerProjection(ns)]);
      const waiting = r2.waitFor(position, null, PATIENCE_MS);
      await r2.start();
      await waiting;
    });

    it('rebuild() from zero reproduces the same documents, and drops documents nothing produced', async () => {
      const ledger = new LedgerProjection(ns);
      await deposit('1', 1, 2);
      await deposit('2', 3);
      const head = await deposit('1', 4);
      const r = runner([ledger]);
      await r.start();
      await r.waitFor(head, null, PATIENCE_MS);
      const snapshot = async () => ({
        totals: [await total(ledger, '1'), await total(ledger, '2')],
        entries: [await entries(ledger, '1'), await entries(ledger, '2')],
      });
      const before = await snapshot();
      expect(before.totals).toEqual([
        { count: 3, sum: 7 },
        { count: 1, sum: 3 },
      ]);

      // Damage the read model the way a bug would, then rebuild it.
      await store.commit(
        `vandal_${ns}`,
        [
          { op: 'put', collection: ledger.totals, id: `w${ns}-1`, doc: { count: 99, sum: -1 } },
          {
            op: 'put',
            collection: ledger.entries,
            id: 'stray',
            doc: { stray: true },
            index: { partition: `w${ns}-1`, sort: '0' },
          },
        ],
        1n,
      );
      await r.rebuild();
      expect(await snapshot()).toEqual(before);
      expect(await store.get(ledger.entries, 'stray')).toBeNull();

      // The runner was running before the rebuild and still is.
      const live = await deposit('2', 5);
      await r.waitFor(live, null, PATIENCE_MS);
      expect(await total(ledger, '2')).toEqual({ count: 2, sum: 8 });

      // A runner that was never started rebuilds too, and is left stopped.
      await r.stop();
      const cold = runner([new LedgerProjection(ns)]);
      await cold.rebuild();
      expect(await total(ledger, '1')).toEqual({ count: 3, sum: 7 });
      expect(await total(ledger, '2')).toEqual({ count: 2, sum: 8 });
      const after = await deposit('2', 1);
      await expect(cold.waitFor(after, null, 300)).rejects.toBeInstanceOf(StoreUnavailableError);
    });

    it('a filtered projection still advances past events it does not want', async () => {
      const wanted = `Wanted${ns}`;
      const ledger = new LedgerProjection(ns, '', { eventTypes: [wanted] });
      const matching = await events.append(`w${ns}-1`, [{ type: wanted, data: { amount: 1 } }], 'any');
      const r = runner([ledger]);
      await r.start();
      await r.waitFor(matching.position, null, PATIENCE_MS);
      let last = 0n;
      for (let i = 0; i < 5; i++)
        last = (await events.append(`u${ns}-${i}`, [{ type: `Unwanted${ns}`, data: {} }], 'any')).position;
      await r.waitFor(last, [ledger.name], PATIENCE_MS);
      await r.waitFor(last, null, PATIENCE_MS);
      expect(await total(ledger, '1')).toEqual({ count: 1, sum: 1 });
      expect(ledger.calls).toBe(1);
    });

    it('waitFor with names waits for those projections only', async () => {
      const fast = new LedgerProjection(ns, 'fast');
      const slow = new LedgerProjection(ns, 'slow');
      const held = gate();
      slow.hold = held.promise;
      try {
        const position = await deposit('1', 1);
        const r = runner([fast, slow]);
        await r.start();
        await r.waitFor(position, [fast.name], PATIENCE_MS);
        await expect(r.waitFor(position, [slow.name], 300)).rejects.toBeInstanceOf(StoreUnavailableError);
        await expect(r.waitFor(position, null, 300)).rejects.toBeInstanceOf(StoreUnavailableError);
        held.open();
        await r.waitFor(position, null, PATIENCE_MS);
      } finally {
        held.open();
      }
    });

    it('after stop() nothing is applied, even by a projection that was failing and retrying', async () => {
      const ledger = new LedgerProjection(ns);
      ledger.failWhen = () => true;
      await deposit('1', 1);
      const r = runner([ledger], { retryDelayMs: 5 });
      await r.start();
      await waitUntil(() => ledger.calls >= 5, 'a few failed attempts');
      await r.stop();
      const calls = ledger.calls;
      await deposit('1', 2);
      await sleep(500);
      expect(ledger.calls).toBe(calls);
      expect(await store.checkpoint(ledger.name)).toBeNull();
      // A stopped runner does not claim to have reached anything new.
      const position = await deposit('1', 3);
      await expect(r.waitFor(position, null, 200)).rejects.toBeInstanceOf(StoreUnavailableError);
    });

    it('two runners of the same projection on one read store (two processes) apply every event once', async () => {
      const one = new LedgerProjection(ns);
      const two = new LedgerProjection(ns);
      const r1 = runner([one], { batchSize: 2 });
      const r2 = runner([two], { batchSize: 2 });
      await Promise.all([r1.start(), r2.start()]);
      let head = 0n;
      for (let i = 0; i < 30; i++) {
        head = await deposit(String(i % 3), i + 1);
        if (i % 4 === 0) await sleep(2);
      }
      await Promise.all([r1.waitFor(head, null, PATIENCE_MS), r2.waitFor(head, null, PATIENCE_MS)]);
      const totals = await Promise.all(['0', '1', '2'].map((s) => total(one, s)));
      expect(totals.map((t) => t?.count)).toEqual([10, 10, 10]);
      expect(totals.reduce((sum, t) => sum + (t?.sum ?? 0), 0)).toBe((30 * 31) / 2);
      expect(await store.checkpoint(one.name)).toBe(head);
      expect(failures).toEqual([]);
    });

    it('start() twice does not run a projection twice', async () => {
      const ledger = new LedgerProjection(ns);
      const r = runner([ledger]);
      await r.start();
      await r.start();
      const position = await deposit('1', 1, 2);
      await r.waitFor(position, null, PATIENCE_MS);
      await sleep(300);
      expect(ledger.calls).toBe(2);
      expect(await total(ledger, '1')).toEqual({ count: 2, sum: 3 });
    });
  });
}
