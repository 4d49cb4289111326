import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store.adapter';
import { SqliteReadStore } from '../read-store/sqlite/sqlite-read-store.adapter';
import type { Projection } from './projection';
import { ProjectionRunner } from './projection-runner';

describe('ProjectionRunner', () => {
  let dir: string;
  let events: SqliteEventStore;
  let reads: SqliteReadStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sms-wallet-runner-'));
    events = new SqliteEventStore(join(dir, 'events.db'), { pollIntervalMs: 20 });
    reads = new SqliteReadStore(join(dir, 'read.db'));
  });

  afterEach(async () => {
    await events.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Counts what it applied, so the test can act between an apply and its timed commit. */
  function notes(applied: () => void): Projection {
    return {
      name: 'notes',
      collections: ['notes'],
      filter: { eventTypes: ['Noted'] },
      apply: (event, view) => {
        view.put('notes', event.streamId, { at: String(event.position) });
        applied();
      },
    };
  }

  it('commits again after a stop and a start, when the stop cleared a commit that was due (as a rebuild does)', async () => {
    let applies = 0;
    const runner = new ProjectionRunner(events, reads, [notes(() => applies++)], { commitIntervalMs: 20 });
    await runner.start();
    const { position } = await events.append('note-1', [{ type: 'Noted', data: {} }], 'no_stream');
    await until(() => applies === 1);
    // The batch is applied and its commit armed for 20 ms from now: stop before it fires.
    await runner.stop();
    // By the time the runner starts again, the commit it had armed would long have fired.
    await new Promise((resolve) => setTimeout(resolve, 60));
    await reads.reset('notes', ['notes']);
    await runner.start();
    // Applied again from zero before anyone waits for it (as the first projections of a rebuild
    // are, while the later ones still subscribe): only the runner's own timer can commit it.
    await until(() => applies === 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await reads.get('notes', 'note-1')).toEqual({ at: String(position) });
    await expect(runner.waitFor(position, null, 3_000)).resolves.toBeUndefined();
    await runner.stop();
  });

  it('applies a projection again from the start, once, when one it took over still has a checkpoint', async () => {
    const { position } = await events.append('note-1', [{ type: 'Noted', data: {} }], 'no_stream');
    // As a store left by the code before the merge: the retired projection's checkpoint and work
    // list, and the taking-over projection's documents made up to a later position than its own.
    await reads.commit('old-counts', [{ op: 'put', collection: 'old-open', id: 'x', doc: {} }], 5n, undefined);
    await reads.commit('notes', [{ op: 'put', collection: 'notes', id: 'stale', doc: {} }], position, undefined);
    let applies = 0;
    const merged: Projection = {
      ...notes(() => applies++),
      replaces: [{ name: 'old-counts', collections: ['old-open'] }],
    };
    const runner = new ProjectionRunner(events, reads, [merged], { commitIntervalMs: 5, log: () => {} });
    await runner.start();
    await runner.waitFor(position, null, 3_000);
    expect(applies).toBe(1); // from the start, although its checkpoint had passed the event
    expect(await reads.get('notes', 'stale')).toBeNull();
    expect(await reads.get('old-open', 'x')).toBeNull();
    expect(await reads.checkpoint('old-counts')).toBeNull();
    await runner.stop();
    await runner.start(); // retired once: nothing is applied again
    await runner.waitFor(position, null, 3_000);
    expect(applies).toBe(1);
    expect(await reads.get('notes', 'note-1')).toEqual({ at: String(position) });
    await runner.stop();
  });
});

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
