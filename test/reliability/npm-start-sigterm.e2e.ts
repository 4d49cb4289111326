import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeNamespaceEnv } from '../support/engines';
import { ensureBuilt, tail, until } from '../support/server-process';
import { freePort, TEST_KEY_LIMITS_OFF } from '../support/test-app';

/**
 * `npm start`, stopped as a supervisor or an operator stops it: SIGTERM to the pid of `npm
 * start` itself. npm hands the signal to its script, whose shell has exec'd the server (package.json),
 * so the server drains and exits, logs that it did, and nothing is left running or listening.
 */
jest.setTimeout(240_000);

const ROOT = join(__dirname, '..', '..');

/** npm as the one running the tests was started (`npm test` sets npm_execpath), else npm on PATH. */
function npmCommand(): { command: string; args: string[] } {
  const cli = process.env.npm_execpath;
  return cli && /npm-cli\.js$/.test(cli)
    ? { command: process.execPath, args: [cli] }
    : { command: 'npm', args: [] };
}

/** The process ids below `pid` (children, their children…), from /proc. */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid …": the command name may hold spaces, so read after its last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* ended meanwhile */
    }
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of parentOf) {
      if (ppid !== parent) continue;
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

describe('npm start, stopped with SIGTERM to its own pid', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sms-wallet-npm-start-'));
  const logFile = join(dataDir, 'npm-start.log');
  let npm: ChildProcess | undefined;
  let below: number[] = [];

  // dist/ built beforehand, so `npm start` finds it current and starts at once.
  beforeAll(() => ensureBuilt(), 180_000);
  afterAll(() => {
    // Whatever a failed run left behind, by its own pid only.
    for (const pid of [npm?.pid, ...below]) if (pid && running(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops the server: it logs its graceful end, no process of it remains, and the port is free', async () => {
    const port = await freePort();
    const { command, args } = npmCommand();
    const out = openSync(logFile, 'a');
    npm = spawn(command, [...args, 'start'], {
      cwd: ROOT,
      env: {
        ...TEST_KEY_LIMITS_OFF,
        ...process.env,
        ...storeNamespaceEnv(dataDir),
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
      },
      stdio: ['ignore', out, out],
    });
    closeSync(out);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      npm!.once('exit', (code, signal) => resolve({ code, signal })),
    );

    await until(
      async () => {
        const health = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2000) });
        return health.status === 200 ? true : undefined;
      },
      120_000,
      `npm start to answer /health on port ${port} (log: ${logFile})`,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${tail(logFile)}`);
    });
    below = descendants(npm.pid!);
    expect(below.length).toBeGreaterThan(0); // the server, under npm

    npm.kill('SIGTERM');
    const status = await exited;
    await until(
      () => (below.every((pid) => !running(pid)) ? true : undefined),
      30_000,
      'every process under npm to end',
    );
    expect(await portFree(port)).toBe(true);

    const log = readFileSync(logFile, 'utf8');
    expect(log).toMatch(/"msg":"SIGTERM: stopping/);
    expect(log).toMatch(/"msg":"stopped gracefully in \d+ ms: exiting 0"/);
    // npm reports its script's exit: 0 from a graceful stop.
    expect(status).toEqual({ code: 0, signal: null });
  });
});
