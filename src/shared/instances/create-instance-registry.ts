import type { AppConfig } from '../../config/app-config';
import { readStoreFile, sqliteOptions } from '../../config/app-config';
import type { InstanceRegistry } from './instance-registry.port';
import { SqliteInstanceRegistry } from './sqlite/sqlite-instance-registry.adapter';

/**
 * Beside the read models: MongoDB when MONGODB_URL is set, else the embedded read.db. (With
 * EventStoreDB and the embedded read store, only the processes sharing a DATA_DIR see each other;
 * the others' work is taken over after the fixed lease and grace, as without heartbeats.)
 */
export function createInstanceRegistry(config: AppConfig): InstanceRegistry {
  if (config.mongodbUrl) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { MongoInstanceRegistry } = require('./mongodb/mongodb-instance-registry.adapter');
    return new MongoInstanceRegistry(config.mongodbUrl, { namespace: config.storeNamespace });
  }
  return new SqliteInstanceRegistry(readStoreFile(config), sqliteOptions(config));
}
