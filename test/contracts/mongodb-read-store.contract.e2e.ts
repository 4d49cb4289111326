/*
 * The read store contract against MongoDB, when MONGODB_URL points at a server (e.g.
 * mongodb://localhost:27017/sms-wallet-test). Without it the suite is skipped, and says why.
 * The ProjectionRunner cases read events from a fresh embedded SQLite event store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../src/shared/event-store/sqlite/sqlite-event-store.adapter';
import type { ReadStore } from '../../src/shared/read-store/read-store.port';
import { describeReadStoreContract } from './read-store.contract';
import { skipSuite } from './support/skip';

const url = process.env.MONGODB_URL;

if (!url) {
  skipSuite('ReadStore contract: MongoDB', 'MongoDB contract suite skipped: MONGODB_URL is not set');
} else {
  // Required here, not imported, so the embedded default never needs the MongoDB driver.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { MongoReadStore } = require('../../src/shared/read-store/mongodb/mongodb-read-store.adapter') as {
    MongoReadStore: new (url: string) => ReadStore;
  };
  describeReadStoreContract('MongoDB', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sms-wallet-mongo-contract-'));
    const events = new SqliteEventStore(join(dir, 'events.sqlite'));
    const store = new MongoReadStore(url);
    return {
      store,
      events,
      cleanup: async () => {
        await events.close();
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
}
