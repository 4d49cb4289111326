/*
 * The event store contract against EventStoreDB, when EVENT_STORE_URL points at a server
 * (e.g. esdb://localhost:2113?tls=false), with and without a store namespace. Without it the
 * suite is skipped, and says why.
 */
import type { EventStore } from '../../src/shared/event-store/event-store.port';
import { describeEventStoreContract } from './event-store.contract';
import { skipSuite } from './support/skip';
import { unique } from './support/wait';

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
    EventStoreDbEventStore: new (url: string, options?: { namespace?: string }) => EventStore;
  };
  const fixture = (options: { namespace?: string }) => {
    const store = new EventStoreDbEventStore(url, options);
    return {
      store,
      remote: { module: adapterModule, exportName: 'EventStoreDbEventStore', args: [url, options] },
      cleanup: () => store.close(),
    };
  };
  describeEventStoreContract('EventStoreDB', async () => fixture({}));
  // What every e2e app on the engines runs on (STORE_NAMESPACE): a fresh namespace per test is
  // an empty log, however full the server is.
  describeEventStoreContract('EventStoreDB in a store namespace', async () =>
    fixture({ namespace: `contract_${unique()}` }),
  );
}
