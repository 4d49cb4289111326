import { createHash, randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

/**
 * The suites on the production engines: with EVENT_STORE_URL and/or MONGODB_URL set (the CI
 * workflow's engines job, docs/operations.md) every app the test support starts uses those
 * servers instead of SQLite files in its DATA_DIR. All test files then share one EventStoreDB
 * and one MongoDB, so each app gets its own STORE_NAMESPACE, and the files that only make sense
 * on the embedded store skip.
 */
export function usesEngines(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.EVENT_STORE_URL || env.MONGODB_URL);
}

/** Told apart per test file as well: a temp directory's name may come back in a later run. */
const RUN = randomBytes(6).toString('hex');

/**
 * STORE_NAMESPACE for an app on `dataDir`, nothing on SQLite. On the engines a data directory
 * still names one store: a restart on the same dataDir, a second server process or the CLI on
 * it see the same data, and no other app does.
 */
export function storeNamespaceEnv(dataDir: string): Record<string, string> {
  if (!usesEngines()) return {};
  const hash = createHash('sha256')
    .update(`${RUN}\0${resolve(dataDir)}`)
    .digest('hex');
  return { STORE_NAMESPACE: `t_${hash.slice(0, 16)}` };
}

/**
 * Says why tests are skipped. On stderr as well as console.warn: jest's default reporter
 * holds back the console of a file whose tests were all skipped when it runs several files,
 * and the reason must always be seen.
 */
export function announceSkip(reason: string): void {
  console.warn(reason);
  process.stderr.write(`${reason}\n`);
}

type TestFn = (name: string, fn: jest.ProvidesCallback, timeout?: number) => void;
type HookFn = (fn: jest.ProvidesHookCallback, timeout?: number) => void;

/**
 * `it` and `beforeAll` for a test file that only makes sense on the embedded SQLite store (it
 * reads events.db itself, or breaks SQLite on purpose). Such a file shadows jest's globals with
 * these; on the engines its tests are skipped with the reason in their names, the reason is
 * printed, and its beforeAll does not run. Its afterAll still does: it removes what the file made
 * as it loaded (its temp directory) and finds nothing else started.
 */
export function embeddedStoreOnly(reason: string): { it: TestFn; beforeAll: HookFn } {
  if (!usesEngines()) return { it, beforeAll };
  const why = `skipped on EventStoreDB/MongoDB: ${reason}`;
  announceSkip(why);
  return {
    it: (name, fn) => it.skip(`${name} (${why})`, fn),
    beforeAll: () => undefined,
  };
}
