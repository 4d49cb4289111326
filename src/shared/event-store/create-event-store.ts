import type { AppConfig } from '../../config/app-config';
import { eventStoreFile, sqliteOptions } from '../../config/app-config';
import type { EventStore } from './event-store.port';
import { SqliteEventStore } from './sqlite/sqlite-event-store.adapter';

/** EventStoreDB when EVENT_STORE_URL is set, else the embedded SQLite file under DATA_DIR. */
export function createEventStore(config: AppConfig): EventStore {
  if (config.eventStoreUrl) {
    // Loaded lazily so the embedded default never needs the gRPC client.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { EventStoreDbEventStore } = require('./eventstoredb/eventstoredb-event-store.adapter');
    return new EventStoreDbEventStore(config.eventStoreUrl, { namespace: config.storeNamespace });
  }
  return new SqliteEventStore(eventStoreFile(config), sqliteOptions(config));
}
