/*
 * The instance registry contract against MongoDB, when MONGODB_URL points at a server. Each test
 * works in a database namespace of its own. Without the URL the suite is skipped, and says why.
 */
import type { InstanceRegistry } from '../../src/shared/instances/instance-registry.port';
import { describeInstanceRegistryContract } from './instance-registry.contract';
import { skipSuite } from './support/skip';
import { unique } from './support/wait';

const url = process.env.MONGODB_URL;

if (!url) {
  skipSuite('InstanceRegistry contract: MongoDB', 'MongoDB contract suite skipped: MONGODB_URL is not set');
} else {
  // Required here, not imported, so the embedded default never needs the MongoDB driver.
  const { MongoInstanceRegistry } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('../../src/shared/instances/mongodb/mongodb-instance-registry.adapter') as {
      MongoInstanceRegistry: new (url: string, options?: { namespace?: string }) => InstanceRegistry;
    };
  describeInstanceRegistryContract('MongoDB', async () => {
    const namespace = `c_${unique()}`;
    return {
      open: () => new MongoInstanceRegistry(url, { namespace }),
      cleanup: async () => {
        // Empties the test's collection: forget everything silent since the far future.
        const registry = new MongoInstanceRegistry(url, { namespace });
        try {
          await registry.forget('9999-12-31T00:00:00.000Z');
        } finally {
          await registry.close();
        }
      },
    };
  });
}
