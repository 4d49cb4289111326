import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store.adapter';
import { SqliteReadStore } from '../read-store/sqlite/sqlite-read-store.adapter';
import type { Projection } from './projection';
import { ProjectionRunner } from './projection-runner';
import { ReadModelChanges } from './read-model-changes';

describe('ReadModelChanges', () => {
  it('tells each listener once per change of any of its collections, until unsubscribed', () => {
    const changes = new ReadModelChanges();
    const heard: string[] = [];
    const off = changes.on(['a', 'b'], () => heard.push('ab'));
    changes.on(['c'], () => heard.push('c'));
    changes.changed(['a', 'b']);
    changes.changed(new Set(['b', 'c', 'z']));
    off();
    changes.changed(['a']);
    expect(heard).toEqual(['ab', 'ab', 'c']);
  });

  describe('fed by the projection runner', () => {
    let dir: string;
    const closers: Array<() => Promise<void>> = [];

    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'sms-wallet-changes-'));
    });

    afterEach(async () => {
      for (const close of closers.splice(0).reverse()) await close();
      rmSync(dir, { recursive: true, force: true });
    });

    /** A read model of one document per `Noted` event, in `notes`; and a process manager writing nothing. */
    const notes: Projection = {
      name: 'notes',
      collections: ['notes'],
      filter: { eventTypes: ['Noted'] },
      apply: (event, view) => view.put('notes', event.streamId, { at: String(event.position) }),
    };
    const watcher: Projection = { name: 'watcher', collections: ['watched'], apply: () => undefined };

    /** One process: its own connections to the shared files, a runner and its change signal. */
    async function process(): Promise<{
      events: SqliteEventStore;
      runner: ProjectionRunner;
      heard: string[];
    }> {
      const events = new SqliteEventStore(join(dir, 'events.db'), { pollIntervalMs: 20 });
      const reads = new SqliteReadStore(join(dir, 'read.db'));
      const changes = new ReadModelChanges();
      const heard: string[] = [];
      changes.on(['notes'], () => heard.push('notes'));
      changes.on(['watched'], () => heard.push('watched'));
      const runner = new ProjectionRunner(events, reads, [notes, watcher], {
        commitIntervalMs: 5,
        onChanged: (collections) => changes.changed(collections),
      });
      await runner.start();
      closers.push(async () => {
        await runner.stop();
        await events.close();
        await reads.close();
      });
      return { events, runner, heard };
    }

    it('says which collections a commit wrote, not those a batch left alone', async () => {
      const one = await process();
      one.heard.splice(0); // the start: each projection resumed from its checkpoint
      const { position } = await one.events.append('note-1', [{ type: 'Noted', data: {} }], 'no_stream');
      await one.runner.waitFor(position);
      await until(() => one.heard.includes('notes'));
      expect(one.heard).not.toContain('watched');
    });

    it('tells a process whose projection found its checkpoint moved (another process committed it)', async () => {
      const one = await process();
      const two = await process();
      one.heard.splice(0);
      two.heard.splice(0);
      const { position } = await one.events.append('note-1', [{ type: 'Noted', data: {} }], 'no_stream');
      await Promise.all([one.runner.waitFor(position), two.runner.waitFor(position)]);
      // One of them committed the document, the other resumed from the stored checkpoint: both heard.
      await until(() => one.heard.includes('notes') && two.heard.includes('notes'));
    });
  });
});

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
