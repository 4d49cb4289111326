/*
 * .github/workflows/ci.yml: the `test` job is .ci/run on its own platform, and the `engines`
 * job runs the contract and e2e suites against EventStoreDB and MongoDB set up as in
 * docker-compose.yml, reached from the runner with the options the adapters' clients need.
 * (GitHub's own checks happen on GitHub; this catches drift between the files here.)
 */
import {
  eventStoreTarget,
  flagValue,
  mongoTarget,
  oneLine,
  readText,
  readYaml,
  runMongoHealth,
} from './deployment-files';

const workflow = readYaml('.github/workflows/ci.yml');
const compose = readYaml('docker-compose.yml').services;

interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly with?: Record<string, unknown>;
  readonly env?: Record<string, string>;
}

const stepIndex = (steps: Step[], pattern: RegExp): number => {
  const index = steps.findIndex((s) => pattern.test(s.run ?? ''));
  if (index < 0) throw new Error(`no step runs ${pattern}`);
  return index;
};

describe('the CI workflow', () => {
  it('runs on pushes to main and on pull requests, with read-only access', () => {
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['push', 'pull_request']));
    expect(workflow.on.push.branches).toEqual(['main']);
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(Object.keys(workflow.jobs).sort()).toEqual(['engines', 'test']);
  });

  describe('test: .ci/run', () => {
    const job = workflow.jobs.test;

    it('runs .ci/run in a Debian container with Node 20, and nothing else', () => {
      expect(job.container.image).toBe('node:20-bookworm');
      expect(job.steps.map((s: Step) => s.uses ?? s.run)).toEqual(['actions/checkout@v4', 'bash .ci/run']);
    });

    it("gets the chromium the browser tests drive: Debian's, installed by .ci/run as root", () => {
      expect(job.container.options ?? '').not.toMatch(/--user/);
      expect(readText('.ci/run')).toMatch(/apt-get install .*chromium/);
      expect(readText('test/support/browser.ts')).toContain("'/usr/bin/chromium'");
      expect(job.container.options).toMatch(/--shm-size=\d+[gm]/); // Docker's 64 MB is too little
    });
  });

  describe('engines: contracts and e2e on EventStoreDB and MongoDB', () => {
    const job = workflow.jobs.engines;
    const steps = job.steps as Step[];
    const service = job.services.eventstore;
    const mongoStep = steps[stepIndex(steps, /^docker run\b.*--name mongo\b/)];
    const mongoArgs = (mongoStep.run as string).split(/\s+/);

    it('runs the same EventStoreDB as docker-compose.yml, with the settings the adapter relies on', () => {
      expect(service.image).toBe(compose.eventstore.image);
      for (const [name, value] of Object.entries(compose.eventstore.environment))
        expect([name, String(service.env[name])]).toEqual([name, String(value)]);
    });

    it('waits for EventStoreDB to be healthy before the first step, on the port the URL names', () => {
      expect(service.ports).toEqual(['2113:2113']);
      expect(service.options).toContain(
        '--health-cmd "curl -fsS http://localhost:2113/health/live || exit 1"',
      );
      expect(service.options).toMatch(/--health-retries \d+/);
      expect(eventStoreTarget(job.env.EVENT_STORE_URL)).toEqual({
        hosts: ['localhost:2113'],
        tls: false,
        discover: false,
      });
    });

    it("starts docker-compose.yml's MongoDB with its --replSet command, as `mongo`", () => {
      expect(mongoArgs).toContain(compose.mongo.image);
      const args = mongoArgs.slice(mongoArgs.indexOf(compose.mongo.image) + 1);
      expect(args).toEqual(compose.mongo.command);
      expect(flagValue(mongoArgs, '--publish')).toBe('27017:27017');
      // The replica set's member is `mongo:27017` (compose's service name): the container
      // must know itself by that name.
      expect(flagValue(mongoArgs, '--hostname')).toBe('mongo');
    });

    it("initiates the replica set with docker-compose.yml's health check, and waits for the primary", () => {
      const composeScript = flagValue(compose.mongo.healthcheck.test, '--eval') as string;
      expect(oneLine(mongoStep.env!.MONGO_HEALTH)).toBe(oneLine(composeScript));
      expect(mongoStep.run).toContain('--health-cmd "mongosh --quiet --eval \\"$MONGO_HEALTH\\""');
      expect(
        runMongoHealth(mongoStep.env!.MONGO_HEALTH, { initiated: false, primary: false }).initiated,
      ).toHaveLength(1);
      const wait = stepIndex(steps, /docker inspect --format '\{\{\.State\.Health\.Status\}\}' mongo/);
      expect(steps[wait].run).toContain('= healthy');
      expect(wait).toBeLessThan(stepIndex(steps, /npx jest/));
    });

    it('reaches MongoDB from the runner directly (the member name is only known in the container)', () => {
      expect(mongoTarget(job.env.MONGODB_URL)).toEqual({
        hosts: ['localhost:27017'],
        replicaSet: null,
        directConnection: true,
        database: mongoTarget(compose.app.environment.MONGODB_URL).database,
      });
    });

    it('runs the contract suites and the e2e suite with Node 20, ending with the jest line', () => {
      const setupNode = steps.find((s) => s.uses === 'actions/setup-node@v4');
      expect(setupNode?.with?.['node-version']).toBe(20);
      const run = steps[stepIndex(steps, /npx jest/)].run as string;
      expect(run).toContain('npx jest test/contracts test/e2e --json --outputFile=.tmp/jest-results.json');
      expect(run).toContain('node .ci/jest-summary.js .tmp/jest-results.json');
      expect(stepIndex(steps, /^npm ci\b/)).toBeLessThan(stepIndex(steps, /npx jest/));
    });
  });
});
