import type { AppConfig } from '../../config/app-config';
import { readStoreFile, sqliteOptions } from '../../config/app-config';
import type { ReadStore } from './read-store.port';
import { SqliteReadStore } from './sqlite/sqlite-read-store.adapter';

/** MongoDB when MONGODB_URL is set, else the embedded SQLite file under DATA_DIR. */
export function createReadStore(config: AppConfig): ReadStore {
  if (config.mongodbUrl) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { MongoReadStore } = require('./mongodb/mongodb-read-store.adapter');
    return new MongoReadStore(config.mongodbUrl, { namespace: config.storeNamespace });
  }
  return new SqliteReadStore(readStoreFile(config), sqliteOptions(config));
}
