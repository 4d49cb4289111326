import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreUnavailableError } from '../../event-store/event-store.port';
import type { DocumentWrite } from '../read-store.port';
import { SqliteReadStore } from './sqlite-read-store.adapter';

const docs = 'docs';
const put = (id: string, doc: unknown, partition?: string): DocumentWrite => ({
  op: 'put',
  collection: docs,
  id,
  doc,
  index: partition === undefined ? undefined : { partition, sort: id },
});

describe('SqliteReadStore group commit', () => {
  let dir: string;
  let file: string;
  let store: SqliteReadStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sms-wallet-read-group-'));
    file = join(dir, 'read.sqlite');
    store = new SqliteReadStore(file);
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the commits of one turn for different projections, each answering for itself', async () => {
    const answers = await Promise.all([
      store.commit('p1', [put('a', { v: 1 })], 1n),
      store.commit('p2', [put('b', { v: 2 })], 2n, null),
      store.commit('p3', [put('c', { v: 3 }), { op: 'delete', collection: docs, id: 'a' }], 3n),
    ]);

    expect(answers).toEqual([true, true, true]);
    expect(await store.checkpoint('p1')).toBe(1n);
    expect(await store.checkpoint('p2')).toBe(2n);
    expect(await store.checkpoint('p3')).toBe(3n);
    expect(await store.get(docs, 'a')).toBeNull(); // p3's delete came after p1's put
    expect(await store.get(docs, 'b')).toEqual({ v: 2 });
    expect(await store.get(docs, 'c')).toEqual({ v: 3 });
  });

  it('a lost compare-and-set in the middle of a batch refuses that commit only', async () => {
    await store.commit('p2', [], 10n);

    const answers = await Promise.all([
      store.commit('p1', [put('a', { v: 1 })], 1n, null),
      store.commit('p2', [put('stale', { v: 99 })], 20n, 5n),
      store.commit('p3', [put('c', { v: 3 })], 3n, null),
    ]);

    expect(answers).toEqual([true, false, true]);
    expect(await store.get(docs, 'a')).toEqual({ v: 1 });
    expect(await store.get(docs, 'c')).toEqual({ v: 3 });
    expect(await store.get(docs, 'stale')).toBeNull();
    expect(await store.checkpoint('p2')).toBe(10n);
  });

  it('compares a commit against an earlier commit of the same projection in the same batch', async () => {
    const answers = await Promise.all([
      store.commit('p', [put('a', { v: 1 })], 5n, null),
      store.commit('p', [put('a', { v: 2 })], 8n, 5n),
      store.commit('p', [put('a', { v: 99 })], 9n, 5n), // computed from a checkpoint that moved
      store.commit('p', [put('b', { v: 1 })], 12n, 8n),
    ]);

    expect(answers).toEqual([true, true, false, true]);
    expect(await store.get(docs, 'a')).toEqual({ v: 2 });
    expect(await store.get(docs, 'b')).toEqual({ v: 1 });
    expect(await store.checkpoint('p')).toBe(12n);
  });

  it('writes documents as they were when the commit was asked for; one that is not JSON fails alone', async () => {
    const doc = { v: 1 };
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;

    const first = store.commit('p1', [put('a', doc)], 1n);
    const broken = store.commit('p2', [put('x', { v: 1 }), put('y', cyclic)], 2n);
    const missing = store.commit('p3', [put('z', undefined)], 3n);
    const last = store.commit('p4', [put('d', { v: 4 })], 4n);
    doc.v = 2;

    await expect(broken).rejects.toThrow(TypeError);
    await expect(missing).rejects.toThrow(TypeError);
    expect(await Promise.all([first, last])).toEqual([true, true]);
    expect(await store.get(docs, 'a')).toEqual({ v: 1 });
    expect(await store.get(docs, 'd')).toEqual({ v: 4 });
    expect(await store.get(docs, 'x')).toBeNull();
    expect(await store.checkpoint('p2')).toBeNull();
    expect(await store.checkpoint('p3')).toBeNull();
  });

  it('an unexpected error in one commit rejects the whole batch and writes nothing of it', async () => {
    const unbindable: DocumentWrite = {
      op: 'put',
      collection: docs,
      id: 'bad',
      doc: { v: 1 },
      index: { partition: { not: 'text' } as unknown as string, sort: '1' },
    };

    const outcomes = await Promise.allSettled([
      store.commit('p1', [put('a', { v: 1 })], 1n),
      store.commit('p2', [unbindable], 2n),
      store.commit('p3', [put('c', { v: 3 })], 3n),
    ]);

    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await store.get(docs, 'a')).toBeNull();
    expect(await store.get(docs, 'c')).toBeNull();
    expect(await store.checkpoint('p1')).toBeNull();
    expect(await store.checkpoint('p3')).toBeNull();

    // The next batch is written as usual.
    expect(await store.commit('p1', [put('a', { v: 1 })], 1n)).toBe(true);
    expect(await store.get(docs, 'a')).toEqual({ v: 1 });
  });

  it('rejects every commit of the batch with StoreUnavailableError when the store is busy', async () => {
    // Another process holds the write lock; a short busy timeout keeps the test quick.
    (store as unknown as { db: Database.Database }).db.pragma('busy_timeout = 50');
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    let outcomes: PromiseSettledResult<boolean>[];
    try {
      outcomes = await Promise.allSettled([
        store.commit('p1', [put('a', { v: 1 })], 1n),
        store.commit('p2', [put('b', { v: 2 })], 2n, null),
      ]);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }

    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(StoreUnavailableError);
    }
    expect(await store.get(docs, 'a')).toBeNull();
    expect(await store.checkpoint('p2')).toBeNull();
    expect(await store.commit('p2', [put('b', { v: 2 })], 2n, null)).toBe(true);
  });

  it('close() writes the commits still waiting for their turn', async () => {
    const pending = store.commit('p', [put('a', { v: 1 })], 7n);
    await store.close();
    expect(await pending).toBe(true);

    store = new SqliteReadStore(file);
    expect(await store.checkpoint('p')).toBe(7n);
    expect(await store.get(docs, 'a')).toEqual({ v: 1 });
  });

  it('reset() comes after the commits asked for before it', async () => {
    const pending = store.commit('p', [put('a', { v: 1 })], 7n);
    await store.reset('p', [docs]);
    expect(await pending).toBe(true);

    expect(await store.checkpoint('p')).toBeNull();
    expect(await store.get(docs, 'a')).toBeNull();
  });
});
