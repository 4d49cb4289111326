import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeNamespaceEnv } from './engines';
import {
  eventually,
  freePort,
  request,
  TEST_KEY_LIMITS_OFF,
  type RequestOptions,
  type TestResponse,
} from './test-app';

const ROOT = join(__dirname, '..', '..');

/**
 * The real server as its own OS process (`node -r ts-node/register/transpile-only src/main.ts`),
 * for the reliability suites: it can be killed with SIGKILL mid-request, stopped with SIGTERM,
 * and restarted on the same DATA_DIR, exactly as in production. Output goes to `logFile`.
 */
export interface ServerProcess {
  readonly pid: number;
  readonly port: number;
  readonly baseUrl: string;
  readonly dataDir: string;
  readonly logFile: string;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /** Sends the signal to this process (by its pid) and resolves with how it ended. */
  kill(signal: NodeJS.Signals): Promise<ExitStatus>;
  /** Resolves once the process has ended (at once if it already has). */
  exited(): Promise<ExitStatus>;
  readonly alive: boolean;
}

export interface ExitStatus {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface ServerOptions {
  readonly dataDir?: string;
  /** Defaults to a free port; pass the old one to restart on the same address. */
  readonly port?: number;
  readonly env?: Record<string, string>;
  /** Defaults to `<dataDir>/server.log`; every start appends to it. */
  readonly logFile?: string;
  readonly readyTimeoutMs?: number;
  /**
   * Runs the built server (`dist/main.js`, as `npm start` does; call ensureBuilt() first)
   * instead of src/ under ts-node, whose threads each compile the whole app again at start.
   */
  readonly built?: boolean;
}

const started = new Set<ChildProcess>();

/** Starts the server and waits for GET /health to answer 200. */
export async function startServer(options: ServerOptions = {}): Promise<ServerProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'sms-wallet-proc-'));
  const port = options.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = options.logFile ?? join(dataDir, 'server.log');
  const fd = openSync(logFile, 'a');
  writeSync(fd, `\n==== starting server on port ${port} at ${new Date().toISOString()} ====\n`);
  // The built server runs as `npm start` runs it: its node flags and environment.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const start = require('../../scripts/start-command') as {
    nodeFlags: string[];
    env: Record<string, string>;
  };
  const child = spawn(
    process.execPath,
    options.built
      ? [...start.nodeFlags, join(ROOT, 'dist/main.js')]
      : ['-r', 'ts-node/register/transpile-only', join(ROOT, 'src/main.ts')],
    {
      cwd: ROOT,
      env: {
        ...TEST_KEY_LIMITS_OFF,
        ...process.env,
        ...(options.built ? start.env : {}),
        LOG_LEVEL: 'warn',
        TEST_DLR_DELAY_MS: '200',
        PUBLIC_URL: baseUrl,
        HOST: '127.0.0.1',
        ...storeNamespaceEnv(dataDir),
        ...options.env,
        PORT: String(port),
        DATA_DIR: dataDir,
      },
      stdio: ['ignore', fd, fd],
    },
  );
  closeSync(fd);
  started.add(child);
  let status: ExitStatus | null = null;
  const exit = new Promise<ExitStatus>((resolve) => {
    child.once('exit', (code, signal) => {
      status = { code, signal };
      started.delete(child);
      resolve(status);
    });
  });

  const deadline = Date.now() + (options.readyTimeoutMs ?? 90_000);
  for (;;) {
    if (status)
      throw new Error(
        `server exited before it was ready (${JSON.stringify(status)}); see ${logFile}:\n${tail(logFile)}`,
      );
    try {
      const health = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2000) });
      if (health.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `server not ready within ${options.readyTimeoutMs ?? 90_000} ms; see ${logFile}:\n${tail(logFile)}`,
      );
    }
    await sleep(200);
  }

  return {
    pid: child.pid as number,
    port,
    baseUrl,
    dataDir,
    logFile,
    request: (method, path, requestOptions) => request(baseUrl, method, path, requestOptions),
    kill: async (signal) => {
      if (!status) child.kill(signal);
      return exit;
    },
    exited: () => exit,
    get alive() {
      return status === null;
    },
  };
}

/** Builds dist/ (`npm run build`) unless it is up to date with src/; builds that start together take turns. */
export async function ensureBuilt(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { staleReason } = require('../../scripts/build-stamp') as {
    staleReason(root: string): string | null;
  };
  if (!staleReason(ROOT)) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { runProcess } = require('./run-process') as typeof import('./run-process');
  const build = await runProcess(process.execPath, [join(ROOT, 'scripts/build.js')], { cwd: ROOT });
  if (build.code !== 0)
    throw new Error(`npm run build failed:
${build.stdout}
${build.stderr}`);
}

/** SIGKILLs every server this module started that is still running (for afterAll). */
export async function killAllStarted(): Promise<void> {
  const running = [...started];
  await Promise.all(
    running.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

export function tail(file: string, chars = 4000): string {
  return existsSync(file) ? readFileSync(file, 'utf8').slice(-chars) : '(no log)';
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` answers something other than undefined (test-app's `eventually`, for sync checks too). */
export const until = <T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
  what: string,
) => eventually(async () => check(), timeoutMs, what);

// ---------------------------------------------------------------------------------------------
// Reading the record: the event log (events.db) and the TEST carrier's submission log
// ---------------------------------------------------------------------------------------------

export interface LoggedEvent {
  readonly position: number;
  readonly streamId: string;
  readonly type: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly data: any;
}

/** Every event of a category (`message`, `wallet`, `checkout`…), read-only, in log order; works while servers run. */
export function readEvents(dataDir: string, category: string): LoggedEvent[] {
  const db = new Database(join(dataDir, 'events.db'), { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const rows = db
      .prepare('SELECT position, stream_id, type, data FROM events WHERE category = ? ORDER BY position')
      .all(category) as Array<{ position: number; stream_id: string; type: string; data: string }>;
    return rows.map((r) => ({
      position: r.position,
      streamId: r.stream_id,
      type: r.type,
      data: JSON.parse(r.data),
    }));
  } finally {
    db.close();
  }
}

/** Per message id: the types of its events, in order. */
export function messageHistories(dataDir: string): Map<string, LoggedEvent[]> {
  const byMessage = new Map<string, LoggedEvent[]>();
  for (const event of readEvents(dataDir, 'message')) {
    const id = event.streamId.slice('message-'.length);
    const list = byMessage.get(id) ?? [];
    list.push(event);
    byMessage.set(id, list);
  }
  return byMessage;
}

/** The dispatchers (instances) whose latest lease renewal in the log holds partitions. */
export function holdersWithPartitions(dataDir: string): Set<string> {
  const latest = new Map<string, number>();
  for (const event of readEvents(dataDir, 'dispatch'))
    if (event.type === 'DispatchLeasesRenewed') latest.set(event.data.holder, event.data.partitions.length);
  return new Set([...latest].filter(([, held]) => held > 0).map(([holder]) => holder));
}

export interface Submission {
  readonly messageId: string;
  /** `submit` from a dispatcher that holds a claim; `resubmit` from TestCarrierResume (SENT messages). */
  readonly kind: 'submit' | 'resubmit';
  readonly pid: number;
}

/** The lines written through TEST_CARRIER_SUBMISSION_LOG (see test-carrier.adapter.ts). */
export function readSubmissions(file: string): Submission[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [messageId, kind, pid] = line.split(' ');
      return { messageId, kind: kind as Submission['kind'], pid: Number(pid) };
    });
}

export function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

// ---------------------------------------------------------------------------------------------
// Merchants and wallet checks
// ---------------------------------------------------------------------------------------------

export interface ProcMerchant {
  readonly email: string;
  readonly testKey: string;
  readonly wallet: string;
}

/**
 * Signs merchants up on a data directory before any server process runs on it (in this jest
 * process, through the same services as the console, without process managers), and grants
 * each TEST wallet `extraCredits` on top of the 100 free ones.
 */
export async function provisionMerchants(
  dataDir: string,
  count: number,
  extraCredits = 0,
): Promise<ProcMerchant[]> {
  // Loaded lazily: only suites that provision pay for compiling the whole app in-process.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { startTestApp } = require('./test-app') as typeof import('./test-app');
  const { createMerchant } = require('./merchant') as typeof import('./merchant');
  const { WalletService } =
    require('../../src/wallet/application/wallet.service') as typeof import('../../src/wallet/application/wallet.service');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const t = await startTestApp({ dataDir, env: { RUN_PROCESS_MANAGERS: 'false' } });
  try {
    const merchants: ProcMerchant[] = [];
    for (let i = 0; i < count; i++) {
      const m = await createMerchant(t);
      if (extraCredits > 0) {
        const granted = await t.app.get(WalletService).addCredits(m.wallets.TEST, {
          sourceId: `grant:${m.wallets.TEST}`,
          source: 'operator_grant',
          sms: extraCredits,
          reason: 'reliability suite',
        });
        if (!granted.ok) throw granted.error;
      }
      merchants.push({ email: m.email, testKey: m.testKey, wallet: m.wallets.TEST });
    }
    return merchants;
  } finally {
    await t.close();
  }
}

export interface Replay {
  readonly wallet: string;
  readonly events: number;
  readonly sms_left: number;
  readonly read_model_sms_left: number | null;
  readonly credits_in: number;
  readonly captured: number;
  readonly reserved: number;
  readonly consistent: boolean;
}

/** `wallet:replay` through the operator CLI as its own process (all wallets in parallel). */
export async function replayWallets(
  dataDir: string,
  wallets: readonly string[],
): Promise<Array<{ code: number; replay: Replay }>> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { runCliProcess } = require('./cli') as typeof import('./cli');
  return Promise.all(
    wallets.map(async (wallet) => {
      const { code, output } = await runCliProcess(dataDir, ['wallet:replay', '--wallet', wallet]);
      return { code, replay: output as unknown as Replay };
    }),
  );
}

/** Credits of DELIVERED messages per wallet, from the event log (what the wallets must have captured). */
export function deliveredCreditsByWallet(dataDir: string): Map<string, number> {
  const totals = new Map<string, number>();
  for (const events of messageHistories(dataDir).values()) {
    const queued = events.find((e) => e.type === 'MessageQueued');
    if (!queued || !events.some((e) => e.type === 'MessageDelivered')) continue;
    totals.set(queued.data.walletId, (totals.get(queued.data.walletId) ?? 0) + queued.data.credits);
  }
  return totals;
}

export const TERMINAL_EVENTS = new Set(['MessageDelivered', 'MessageFailed', 'MessageExpired']);

/** A message stream is finished when it reached an outcome, or is the reaper's MessageRejected (an orphaned send). */
export function isFinished(events: readonly LoggedEvent[]): boolean {
  return events.some((e) => TERMINAL_EVENTS.has(e.type)) || events[0]?.type === 'MessageRejected';
}

// ---------------------------------------------------------------------------------------------
// Send load
// ---------------------------------------------------------------------------------------------

export const LOAD_NUMBERS = [
  '+233200000001',
  '+233241234567',
  '+233244000111',
  '+233245550000',
  '+233200000002',
];

export interface SendOutcome {
  /** HTTP status, or null when the connection failed (the server died under it: in doubt). */
  readonly status: number | null;
  readonly id: string | null;
  readonly merchant: ProcMerchant;
  /** A 503 answered by the HTTP layer of a server that is closing (Fastify's return503OnClosing), before any handler ran. */
  readonly refusedWhileClosing: boolean;
}

/** Fastify's load-shedding answer while it drains (see node_modules/fastify/lib/route.js). */
/** The draining server's refusal: API.md's 503 shape with Retry-After, and the connection closed. */
export const isClosingRefusal = (r: TestResponse) =>
  r.status === 503 &&
  r.headers.get('connection') === 'close' &&
  r.headers.get('retry-after') === '1' &&
  r.body?.error?.code === 'service_unavailable' &&
  r.body?.error?.request_id === r.headers.get('x-request-id');

export interface Load {
  readonly outcomes: SendOutcome[];
  accepted(): string[];
  stop(): Promise<void>;
}

/**
 * `clients` concurrent clients, each sending one message after another until stop(); client i
 * uses merchant i mod n and, per send, the next of `targets()` (so they alternate between servers).
 */
export function startLoad(
  targets: () => readonly string[],
  merchants: readonly ProcMerchant[],
  clients = 16,
): Load {
  const outcomes: SendOutcome[] = [];
  let stopped = false;
  const runs = Array.from({ length: clients }, async (_, client) => {
    const merchant = merchants[client % merchants.length];
    for (let n = 0; !stopped; n++) {
      const bases = targets();
      const base = bases[(client + n) % bases.length];
      const to = LOAD_NUMBERS[(client + n) % LOAD_NUMBERS.length];
      try {
        const r = await request(base, 'POST', '/v1/messages', {
          key: merchant.testKey,
          body: { to, sender_id: 'Reliab', message: `load ${client}/${n}`, type: 'transactional' },
        });
        outcomes.push({
          status: r.status,
          id: r.status === 200 ? r.body.id : null,
          merchant,
          refusedWhileClosing: isClosingRefusal(r),
        });
        if (r.status !== 200) await sleep(50);
      } catch {
        outcomes.push({ status: null, id: null, merchant, refusedWhileClosing: false });
        await sleep(100); // refused: the server is down or restarting
      }
    }
  });
  return {
    outcomes,
    accepted: () => outcomes.filter((o) => o.status === 200).map((o) => o.id as string),
    stop: async () => {
      stopped = true;
      await Promise.all(runs);
    },
  };
}
