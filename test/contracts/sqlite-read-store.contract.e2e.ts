import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../src/shared/event-store/sqlite/sqlite-event-store.adapter';
import { SqliteReadStore } from '../../src/shared/read-store/sqlite/sqlite-read-store.adapter';
import { describeReadStoreContract } from './read-store.contract';

describeReadStoreContract('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sms-wallet-read-'));
  const opened: { close(): Promise<void> }[] = [];
  const cleanup = async () => {
    try {
      for (const store of opened.reverse()) await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    const store = new SqliteReadStore(join(dir, 'read.sqlite'));
    opened.push(store);
    const events = new SqliteEventStore(join(dir, 'events.sqlite'));
    opened.push(events);
    return { store, events, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
});
