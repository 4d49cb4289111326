import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeVersionProblem, SUPPORTED_NODE } from '../../src/config/node-version';

const ROOT = join(__dirname, '..', '..');
// semver is not a dependency of ours: it is npm's own range logic, installed with the
// dependencies (better-sqlite3's prebuild-install needs it), and the only faithful reading of
// the `engines` ranges in package-lock.json.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const semver = require('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

/** The lowest version of each line the service supports: every dependency must run there. */
const FLOORS = ['20.19.0', '22.12.0'];

/**
 * Production dependencies whose `engines` ask for more than the floor, and why they still run
 * on it. A new entry needs the same reasoning, or a higher floor.
 */
const KNOWN_STRICTER: Record<string, string> = {
  // @fastify/static 10.1.5 and later: an ES module whose package asks for Node 22, loaded with
  // require(), which Node runs without a flag from 20.19 (what the floor is for). The server
  // runs it on Node 20 in CI and in the Docker image (node:20).
  'node_modules/content-disposition': '>=22',
};

describe('the Node.js versions package.json states (engines) are the ones the code checks and the dependencies allow', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));

  it('states in engines the range the start-up check enforces', () => {
    expect(pkg.engines.node).toBe(SUPPORTED_NODE);
    expect(lock.packages[''].engines.node).toBe(SUPPORTED_NODE);
    for (const version of [
      '18.20.8',
      '20.0.0',
      '20.18.3',
      '20.19.0',
      '21.7.3',
      '22.11.0',
      '22.12.0',
      '24.1.0',
    ])
      expect({ version, ok: nodeVersionProblem(version) === null }).toEqual({
        version,
        ok: semver.satisfies(version, SUPPORTED_NODE),
      });
    expect(nodeVersionProblem(process.version)).toBeNull(); // this very run
  });

  it('runs every production dependency on the floor of each supported line, or says why it still does', () => {
    const stricter: Record<string, string> = {};
    for (const [path, entry] of Object.entries<{
      dev?: boolean;
      devOptional?: boolean;
      engines?: { node?: string };
    }>(lock.packages)) {
      const range = entry.engines?.node;
      if (!path || entry.dev || entry.devOptional || !range) continue;
      if (FLOORS.some((floor) => !semver.satisfies(floor, range))) stricter[path] = range;
    }
    expect(stricter).toEqual(KNOWN_STRICTER);
  });
});

/** Runs an entry point under a Node that says it is `version` (the check reads process.version). */
function runAs(version: string, entry: string, args: string[] = []) {
  const pretend = `Object.defineProperty(process, 'version', { value: '${version}' });`;
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      [
        '-r',
        'ts-node/register/transpile-only',
        '-e',
        `${pretend} require(${JSON.stringify(entry)});`,
        ...args,
      ],
      {
        cwd: ROOT,
        env: { ...process.env, PORT: '0', DATA_DIR: '/nonexistent/never-created' },
        timeout: 120_000,
      },
      (error, stdout, stderr) => resolve({ code: error ? (child.exitCode ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the start-up check', () => {
  jest.setTimeout(120_000);

  it.each([
    ['the server', 'src/main.ts'],
    ['the CLI', 'src/cli/main.ts'],
  ])('stops %s on Node 20.18 with one clear sentence, before loading anything else', async (_, entry) => {
    const run = await runAs('v20.18.3', join(ROOT, entry));
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(nodeVersionProblem('v20.18.3'));
    expect(run.stdout).toBe('');
  });
});
