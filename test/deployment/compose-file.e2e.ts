/*
 * docker-compose.yml against what the adapters need (docs/operations.md, "Running the
 * production shape"): the app's EVENT_STORE_URL and MONGODB_URL reach the compose services by
 * name and port with the options the clients need, EventStoreDB runs insecure with no
 * server-side projections, MongoDB runs as a replica set that its health check initiates, and
 * the app starts once both are healthy. Nothing here needs Docker.
 */
import {
  atLeast,
  eventStoreTarget,
  flagValue,
  imageVersion,
  mongoTarget,
  oneLine,
  readText,
  readYaml,
  runMongoHealth,
} from './deployment-files';

const compose = readYaml('docker-compose.yml');
const { eventstore, mongo, app } = compose.services;
const appEnv = app.environment as Record<string, string>;
const esdbEnv = eventstore.environment as Record<string, string | number>;

/** EventStoreDB's HTTP/gRPC port (2113 unless the compose file moves it). */
const esdbPort = Number(esdbEnv.EVENTSTORE_NODE_PORT ?? esdbEnv.EVENTSTORE_HTTP_PORT ?? 2113);
const replicaSetName = flagValue(mongo.command, '--replSet');
const mongoHealthScript = (): string => {
  const test = mongo.healthcheck.test as string[];
  expect(test.slice(0, 2)).toEqual(['CMD', 'mongosh']);
  const script = flagValue(test, '--eval');
  if (!script) throw new Error('the mongo health check runs no --eval script');
  return oneLine(script);
};

describe('docker-compose.yml against the adapters', () => {
  it('has the three services the documentation names', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['app', 'eventstore', 'mongo']);
    expect(app.build).toBe('.');
  });

  describe('EventStoreDB', () => {
    it('runs a server version the 6.x gRPC client speaks to (20.10 and later)', () => {
      expect(eventstore.image).toMatch(/^eventstore\/eventstore:\d+\.\d+/);
      expect(atLeast(imageVersion(eventstore.image), [20, 10])).toBe(true);
    });

    it('is one insecure node, which the app reaches by service name without TLS', () => {
      expect(String(esdbEnv.EVENTSTORE_CLUSTER_SIZE)).toBe('1');
      expect(String(esdbEnv.EVENTSTORE_INSECURE)).toBe('true');
      expect(eventStoreTarget(appEnv.EVENT_STORE_URL)).toEqual({
        hosts: [`eventstore:${esdbPort}`],
        tls: false, // an insecure node refuses TLS; the client's default is TLS
        discover: false, // one node: no gossip discovery
      });
      expect(eventstore.ports).toContain(`${esdbPort}:${esdbPort}`);
    });

    it('runs no server-side projections: the adapter filters $all itself', () => {
      expect(esdbEnv.EVENTSTORE_RUN_PROJECTIONS).toBe('None');
      expect(String(esdbEnv.EVENTSTORE_START_STANDARD_PROJECTIONS)).toBe('false');
      // …and the adapter indeed reads no projection streams ($ce-, $et-, $by_category).
      for (const file of ['eventstoredb-event-store.adapter.ts', 'eventstoredb-mapping.ts'])
        expect(readText(`src/shared/event-store/eventstoredb/${file}`)).not.toMatch(/\$ce-|\$et-|\$by_/);
    });

    it('is healthy once it answers /health/live over plain HTTP', () => {
      const [kind, command] = eventstore.healthcheck.test as string[];
      expect(kind).toBe('CMD-SHELL');
      expect(command).toContain(`http://localhost:${esdbPort}/health/live`);
    });

    it('keeps its data in a volume', () => {
      expect(eventstore.volumes).toEqual(
        expect.arrayContaining([expect.stringMatching(/:\/var\/lib\/eventstore$/)]),
      );
    });
  });

  describe('MongoDB', () => {
    it('runs a version with multi-document transactions on replica sets (4.0 and later)', () => {
      expect(mongo.image).toMatch(/^mongo:\d/);
      expect(atLeast(imageVersion(mongo.image), [4, 0])).toBe(true);
    });

    it('runs as a replica set that listens beyond localhost', () => {
      expect(replicaSetName).toMatch(/^\w+$/);
      expect(mongo.command).toContain('--bind_ip_all');
    });

    it('is reached by the app as that replica set, by service name, with a database', () => {
      expect(mongoTarget(appEnv.MONGODB_URL)).toEqual({
        hosts: ['mongo:27017'],
        replicaSet: replicaSetName,
        directConnection: false,
        database: 'sms_wallet',
      });
      expect(mongo.ports).toContain('27017:27017');
    });

    it('initiates the replica set with the member the app connects to, the first time only', () => {
      const script = mongoHealthScript();
      const fresh = runMongoHealth(script, { initiated: false, primary: false });
      // With replicaSet=… the driver connects to the members as the replica set names them.
      expect(fresh.initiated).toEqual([
        { _id: replicaSetName, members: [{ _id: 0, host: mongoTarget(appEnv.MONGODB_URL).hosts[0] }] },
      ]);
      expect(fresh.exitCode).toBe(1);
      expect(runMongoHealth(script, { initiated: true, primary: false })).toEqual({
        initiated: [],
        exitCode: 1,
      });
    });

    it('is healthy only once this node is the writable primary', () => {
      expect(runMongoHealth(mongoHealthScript(), { initiated: true, primary: true })).toEqual({
        initiated: [],
        exitCode: 0,
      });
      expect(mongo.healthcheck.retries * parseInt(mongo.healthcheck.interval, 10)).toBeGreaterThanOrEqual(60);
    });

    it('keeps its data and the replica set configuration in volumes', () => {
      expect(mongo.volumes).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/:\/data\/db$/),
          expect.stringMatching(/:\/data\/configdb$/),
        ]),
      );
    });
  });

  describe('the app', () => {
    it('starts once both stores are healthy, and has a health check of its own', () => {
      expect(app.depends_on).toEqual({
        eventstore: { condition: 'service_healthy' },
        mongo: { condition: 'service_healthy' },
      });
      expect(app.healthcheck.test.join(' ')).toContain('/ready');
    });

    it('uses one store namespace only: none', () => {
      expect(appEnv.STORE_NAMESPACE).toBeUndefined();
    });

    it('is described with these very URLs in docs/operations.md', () => {
      const operations = readText('docs/operations.md');
      expect(operations).toContain(`EVENT_STORE_URL=${appEnv.EVENT_STORE_URL}`);
      expect(operations).toContain(`MONGODB_URL=${appEnv.MONGODB_URL}`);
      expect(operations).toContain(`EventStoreDB ${imageVersion(eventstore.image).join('.')}`);
      expect(operations).toContain(`--replSet ${replicaSetName}`);
    });
  });
});
