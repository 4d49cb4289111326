import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedStoreOnly } from '../support/engines';
import {
  killAllStarted,
  ProcMerchant,
  provisionMerchants,
  ServerProcess,
  startServer,
} from '../support/server-process';

/**
 * Issue 30: the fraud guard holds with two server processes on one store. Its caps are decided on
 * the wallet's guard stream at an expected revision, not by a counter in either process, so
 * creates racing through both processes at once get exactly the cap between them.
 */
jest.setTimeout(240_000);
const { it, beforeAll } = embeddedStoreOnly('two processes share the SQLite files of one DATA_DIR');

const dataDir = mkdtempSync(join(tmpdir(), 'sms-wallet-verify-scale-'));
let merchants: ProcMerchant[] = [];
let servers: ServerProcess[] = [];

beforeAll(async () => {
  merchants = await provisionMerchants(dataDir, 2, 1000);
  const env = { TEST_DLR_DELAY_MS: '50', VERIFY_LIMIT_PER_WALLET_PER_HOUR: '12', LOG_LEVEL: 'warn' };
  servers = await Promise.all([startServer({ dataDir, env }), startServer({ dataDir, env })]);
}, 200_000);

afterAll(async () => {
  await killAllStarted();
  rmSync(dataDir, { recursive: true, force: true });
});

/** `count` creates at once, alternating between the two processes. */
const createsAtOnce = (key: string, bodies: readonly Record<string, unknown>[]) =>
  Promise.all(
    bodies.map((body, i) =>
      servers[i % 2].request('POST', '/v1/verifications', { key, body: { sender_id: 'MyShop', ...body } }),
    ),
  );

const refusalsRecorded = (walletId: string) => {
  const db = new Database(join(dataDir, 'events.db'), { readonly: true });
  try {
    return db
      .prepare(`SELECT type, count(*) AS n FROM events WHERE stream_id = ? GROUP BY type`)
      .all(`verify-guard-${walletId}`) as { type: string; n: number }[];
  } finally {
    db.close();
  }
};

it('lets exactly 5 of 30 racing creates to one number through, over two processes', async () => {
  const [m] = merchants;
  const answers = await createsAtOnce(
    m.testKey,
    Array.from({ length: 30 }, () => ({ to: '+233241230000' })),
  );
  const statuses = answers.map((a) => a.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(5);
  expect(statuses.filter((s) => s === 429)).toHaveLength(25);
  expect(
    answers.filter((a) => a.status === 429).every((a) => a.body.error.code === 'too_many_verifications'),
  ).toBe(true);
  const recorded = Object.fromEntries(refusalsRecorded(m.wallet).map((r) => [r.type, r.n]));
  expect(recorded).toEqual({ VerificationAllowed: 5, VerificationRefused: 25 });
  const list = await servers[0].request('GET', '/v1/verifications?limit=100', { key: m.testKey });
  expect(list.body.data).toHaveLength(5);
});

it('holds the cap per wallet over two processes too', async () => {
  const [, m] = merchants;
  const answers = await createsAtOnce(
    m.testKey,
    Array.from({ length: 30 }, (_, i) => ({ to: `+23324${String(i).padStart(2, '0')}12345` })),
  );
  expect(answers.filter((a) => a.status === 200)).toHaveLength(12);
  expect(answers.filter((a) => a.status === 429)).toHaveLength(18);
  const messages = await servers[1].request('GET', '/v1/messages?limit=100', { key: m.testKey });
  expect(messages.body.data).toHaveLength(12);
});
