import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../src/shared/event-store/sqlite/sqlite-event-store.adapter';
import { describeEventStoreContract } from './event-store.contract';

const adapterModule = require.resolve('../../src/shared/event-store/sqlite/sqlite-event-store.adapter');

describeEventStoreContract('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sms-wallet-events-'));
  const file = join(dir, 'events.sqlite');
  let store: SqliteEventStore;
  try {
    store = new SqliteEventStore(file);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    store,
    // A second process opens the same file, as the operator CLI does beside the server.
    remote: { module: adapterModule, exportName: 'SqliteEventStore', args: [file] },
    cleanup: async () => {
      try {
        await store.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
});
