/*
 * The event store contract against EventStoreDB, when EVENT_STORE_URL points at a server
 * (e.g. esdb://localhost:2113?tls=false). Without it the suite is skipped, and says why.
 */
import type { EventStore } from '../../src/shared/event-store/event-store.port';
import { describeEventStoreContract } from './event-store.contract';
import { skipSuite } from './support/skip';

const url = process.env.EVENT_STORE_URL;

if (!url) {
  skipSuite(
    'EventStore contract: EventStoreDB',
    'EventStoreDB contract suite skipped: EVENT_STORE_URL is not set',
  );
} else {
  // Required here, not imported, so the embedded default never needs the gRPC client.
  const adapterModule =
    require.resolve('../../src/shared/event-store/eventstoredb/eventstoredb-event-store.adapter');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { EventStoreDbEventStore } = require(adapterModule) as {
    EventStoreDbEventStore: new (url: string) => EventStore;
  };
  describeEventStoreContract('EventStoreDB', async () => {
    const store = new EventStoreDbEventStore(url);
    return {
      store,
      remote: { module: adapterModule, exportName: 'EventStoreDbEventStore', args: [url] },
      cleanup: () => store.close(),
    };
  });
}
