import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import defaultPackages from './packages.json';
import { checkStoreNamespace } from '../shared/store-namespace';
import { Env, envFlag, envInt } from './env';
import { loadMailOptions, type MailOptions } from '../notifications/notifications.options';

export const APP_CONFIG = Symbol('APP_CONFIG');

export type ThreadRole = 'all' | 'api' | 'worker';

function threadRole(value: string | undefined): ThreadRole {
  if (value === undefined || value === '') return 'all';
  if (value === 'all' || value === 'api' || value === 'worker') return value;
  throw new Error(`THREAD_ROLE must be all, api or worker, got "${value}"`);
}

/** Process managers (dispatching, settlement, payments, webhooks, sweeps) run in this thread. */
export const runsProcessManagersHere = (config: AppConfig) =>
  config.runProcessManagers && config.threadRole !== 'api';

/** Read models are applied in this thread (not in the HTTP thread of a server with a worker). */
export const runsProjectionsHere = (config: AppConfig) => config.threadRole !== 'api';

export interface CreditPackage {
  readonly id: string;
  readonly name: string;
  /** Price in minor units of `currency` (pesewas for GHS): never a float. */
  readonly amount: number;
  readonly currency: string;
  readonly sms: number;
}

export interface RateLimit {
  readonly perSecond: number;
  readonly burst: number;
}

export interface AppConfig {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** Base of the URLs this service hands out (hosted checkout pages). */
  readonly publicUrl: string;
  readonly eventStoreUrl: string | null;
  readonly mongodbUrl: string | null;
  /**
   * Keeps several deployments (or test apps) apart on one EventStoreDB and one MongoDB: a
   * stream-name prefix and a database-name suffix. Empty in production; the SQLite stores
   * ignore it (DATA_DIR keeps them apart).
   */
  readonly storeNamespace: string;
  readonly testDlrDelayMs: number;
  readonly messageValidityMs: { readonly TEST: number; readonly LIVE: number };
  /**
   * `perTestKey` is the lower limit of TEST keys (free, so no trust boundary); `signUpsPerHour`
   * throttles console sign-ups per client address; `perSession` counts a signed-in console
   * session's requests, `previewsPerSessionPerMinute` its "Send to many" previews (each checks
   * up to 1,000 rows); `batchItemsPerWallet` (lower for TEST wallets) counts batch items, the
   * work a batch is, per wallet whatever key or session sends them.
   */
  readonly rateLimits: {
    readonly perKey: RateLimit;
    readonly perTestKey: RateLimit;
    readonly perAddress: RateLimit;
    readonly signUpsPerHour: number;
    readonly perSession: RateLimit;
    readonly previewsPerSessionPerMinute: number;
    readonly batchItemsPerWallet: RateLimit;
    readonly batchItemsPerTestWallet: RateLimit;
  };
  /** Messages one TEST wallet may send per UTC day (0: no limit). */
  readonly testDailyMessageQuota: number;
  readonly packages: readonly CreditPackage[];
  /** `CARRIER_<NAME>_URL` connections for LIVE sends, by carrier name in upper case. */
  readonly carrierUrls: Readonly<Record<string, string>>;
  readonly paystack: {
    readonly secretKey: string | null;
    readonly baseUrl: string;
    readonly timeoutMs: number;
  };
  readonly checkoutTtlMs: number;
  /**
   * How long the provider's answer about one checkout's payment is reused by the hosted pages'
   * return and decline routes (no sign-in), so they cannot hammer the provider with our key.
   */
  readonly paymentVerifyCacheMs: number;
  /**
   * SECRET_BOX_KEY (64 hex characters): seals the one-time tokens that mails carry (password
   * reset links) in the log. Unset, a key is made once in DATA_DIR/secret-box.key.
   */
  readonly secretBoxKey: string | null;
  /** The mail outbox: SMTP_URL, MAIL_FROM, retries (src/notifications/notifications.options.ts). */
  readonly mail: MailOptions;
  readonly logLevel: 'silent' | 'error' | 'warn' | 'info' | 'debug';
  /** `json` (one JSON object per line, the default) or `pretty` (human-readable, for development). */
  readonly logFormat: 'json' | 'pretty';
  /**
   * WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true (local development only): webhook endpoints may reach
   * loopback, private and link-local addresses. Off, every endpoint reaches public addresses only.
   */
  readonly webhookAllowPrivateAddresses: boolean;
  /** When set, GET /metrics requires `Authorization: Bearer <token>`; unset, it is open. */
  readonly metricsToken: string | null;
  /** False for the operator CLI: it catches read models up but never dispatches or charges. */
  readonly runProcessManagers: boolean;
  /**
   * IDLE_POLL_MS: the longest a background loop rests (the dispatcher's pending list, the expiry
   * sweep, the webhook and mail outboxes) while it knows of nothing due; a change to a read model
   * it reads, or its next item's time, wakes it sooner (PollingLoop, ReadModelChanges).
   */
  readonly idlePollMs: number;
  /**
   * BACKGROUND_THREADS (on unless `off`): the server runs work beside its HTTP thread in threads
   * of its own (the embedded stores' WAL checkpoints). Off for the CLI and the in-process tests.
   */
  readonly backgroundThreads: boolean;
  /**
   * SQLITE_PAGE_CACHE_KIB: the page cache of each connection to an embedded SQLite file. SQLite
   * fills it up to its limit and keeps it; at better-sqlite3's 16 MB default the server's
   * connections held up to 50 MB more behind a campaign to 100,000 contacts, for no measurable speed.
   */
  readonly sqlitePageCacheKiB: number;
  /**
   * Which of the server's threads this is (THREAD_ROLE, set by the server for its own threads):
   * `all` does everything on one thread (the CLI, the in-process tests, BACKGROUND_THREADS=off);
   * `api` serves HTTP and owns the wallets' command queues; `worker` runs the read models and
   * process managers beside it.
   */
  readonly threadRole: ThreadRole;
}

export function loadConfig(env: Env = process.env): AppConfig {
  const port = envInt(env, 'PORT', 3000);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.DATA_DIR ?? './data'),
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    eventStoreUrl: env.EVENT_STORE_URL || null,
    mongodbUrl: env.MONGODB_URL || null,
    storeNamespace: checkStoreNamespace(env.STORE_NAMESPACE ?? ''),
    testDlrDelayMs: envInt(env, 'TEST_DLR_DELAY_MS', 1000),
    messageValidityMs: {
      TEST: envInt(env, 'TEST_MESSAGE_VALIDITY_MS', 10 * 60 * 1000),
      LIVE: envInt(env, 'LIVE_MESSAGE_VALIDITY_MS', 48 * 60 * 60 * 1000),
    },
    rateLimits: {
      perKey: {
        perSecond: envInt(env, 'RATE_LIMIT_PER_KEY_RPS', 200),
        burst: envInt(env, 'RATE_LIMIT_PER_KEY_BURST', 500),
      },
      perTestKey: {
        perSecond: envInt(env, 'RATE_LIMIT_PER_TEST_KEY_RPS', 20),
        burst: envInt(env, 'RATE_LIMIT_PER_TEST_KEY_BURST', 50),
      },
      perAddress: {
        perSecond: envInt(env, 'RATE_LIMIT_PER_ADDRESS_RPS', 20),
        burst: envInt(env, 'RATE_LIMIT_PER_ADDRESS_BURST', 50),
      },
      signUpsPerHour: envInt(env, 'SIGNUP_LIMIT_PER_ADDRESS_PER_HOUR', 10),
      perSession: {
        perSecond: envInt(env, 'RATE_LIMIT_PER_SESSION_RPS', 10),
        burst: envInt(env, 'RATE_LIMIT_PER_SESSION_BURST', 60),
      },
      previewsPerSessionPerMinute: envInt(env, 'SEND_MANY_PREVIEWS_PER_SESSION_PER_MINUTE', 10),
      batchItemsPerWallet: batchItemLimit('BATCH_ITEMS_PER_WALLET', {
        perSecond: envInt(env, 'BATCH_ITEMS_PER_WALLET_PER_SECOND', 2000),
        burst: envInt(env, 'BATCH_ITEMS_PER_WALLET_BURST', 10_000),
      }),
      batchItemsPerTestWallet: batchItemLimit('BATCH_ITEMS_PER_TEST_WALLET', {
        perSecond: envInt(env, 'BATCH_ITEMS_PER_TEST_WALLET_PER_SECOND', 200),
        burst: envInt(env, 'BATCH_ITEMS_PER_TEST_WALLET_BURST', 1000),
      }),
    },
    testDailyMessageQuota: envInt(env, 'TEST_DAILY_MESSAGE_QUOTA', 1000),
    packages: env.PACKAGES_FILE ? parsePackages(readFileSync(env.PACKAGES_FILE, 'utf8')) : defaultPackages,
    carrierUrls: carrierUrls(env),
    paystack: {
      secretKey: env.PAYSTACK_SECRET_KEY || null,
      baseUrl: (env.PAYSTACK_BASE_URL ?? 'https://api.paystack.co').replace(/\/+$/, ''),
      timeoutMs: Math.max(1, envInt(env, 'PAYSTACK_TIMEOUT_MS', 15_000)),
    },
    checkoutTtlMs: envInt(env, 'CHECKOUT_TTL_MS', 30 * 60 * 1000),
    paymentVerifyCacheMs: envInt(env, 'PAYMENT_VERIFY_CACHE_MS', 5_000),
    secretBoxKey: env.SECRET_BOX_KEY || null,
    mail: loadMailOptions(resolve(env.DATA_DIR ?? './data'), env),
    logLevel: (env.LOG_LEVEL as AppConfig['logLevel']) ?? 'info',
    logFormat: logFormat(env.LOG_FORMAT),
    metricsToken: env.METRICS_TOKEN || null,
    webhookAllowPrivateAddresses: envFlag(env, 'WEBHOOK_ALLOW_PRIVATE_ADDRESSES'),
    runProcessManagers: env.RUN_PROCESS_MANAGERS !== 'false',
    idlePollMs: Math.max(100, envInt(env, 'IDLE_POLL_MS', 10_000)),
    backgroundThreads: env.BACKGROUND_THREADS !== 'off',
    sqlitePageCacheKiB: Math.max(128, envInt(env, 'SQLITE_PAGE_CACHE_KIB', 2048)),
    threadRole: threadRole(env.THREAD_ROLE),
  };
}

/** A full batch (1,000 items) must fit in the burst, or it could never be sent. */
const FULL_BATCH_ITEMS = 1000;

function batchItemLimit(prefix: string, limit: RateLimit): RateLimit {
  if (limit.perSecond < 1 || limit.burst < FULL_BATCH_ITEMS)
    throw new Error(
      `${prefix}_PER_SECOND must be at least 1 and ${prefix}_BURST at least ${FULL_BATCH_ITEMS} (one full batch), got ${limit.perSecond} and ${limit.burst}`,
    );
  return limit;
}

function logFormat(value: string | undefined): AppConfig['logFormat'] {
  if (value === undefined || value === '' || value === 'json') return 'json';
  if (value === 'pretty') return 'pretty';
  throw new Error(`LOG_FORMAT must be json or pretty, got "${value}"`);
}

function carrierUrls(env: Env): Record<string, string> {
  const urls: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const match = /^CARRIER_([A-Z0-9_]+)_URL$/.exec(name);
    if (match && value) urls[match[1]] = value;
  }
  return urls;
}

function parsePackages(text: string): CreditPackage[] {
  const packages = JSON.parse(text) as CreditPackage[];
  for (const p of packages) {
    if (!p.id || !Number.isInteger(p.amount) || !Number.isInteger(p.sms) || p.sms <= 0 || !p.currency) {
      throw new Error(
        `PACKAGES_FILE: package ${JSON.stringify(p)} needs id, integer amount, currency and sms`,
      );
    }
  }
  return packages;
}

export const eventStoreFile = (config: AppConfig) => resolve(config.dataDir, 'events.db');
export const readStoreFile = (config: AppConfig) => resolve(config.dataDir, 'read.db');
/** How the server opens its embedded SQLite files (openSqlite). */
export const sqliteOptions = (config: AppConfig) => ({
  // Another thread checkpoints the WALs when the server runs its own threads.
  autoCheckpoint: !config.backgroundThreads,
  pageCacheKiB: config.sqlitePageCacheKiB,
});
