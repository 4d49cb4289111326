import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../src/shared/event-store/sqlite/sqlite-event-store.adapter';
import { describeEventStoreContract } from './event-store.contract';

describeEventStoreContract('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sms-wallet-events-'));
  const file = join(dir, 'events.sqlite');
  const store = new SqliteEventStore(file);
  return {
    store,
    remote: {
      module: require.resolve('../../src/shared/event-store/sqlite/sqlite-event-store.adapter'),
      exportName: 'SqliteEventStore',
      args: [file],
    },
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
