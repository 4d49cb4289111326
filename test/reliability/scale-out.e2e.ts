import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  countBy,
  holdersWithPartitions,
  deliveredCreditsByWallet,
  isFinished,
  killAllStarted,
  messageHistories,
  ProcMerchant,
  provisionMerchants,
  readEvents,
  readSubmissions,
  replayWallets,
  ServerProcess,
  sleep,
  startLoad,
  startServer,
  until,
} from '../support/server-process';
import { embeddedStoreOnly } from '../support/engines';

/**
 * Issue 8, scale-out: two server processes on the same embedded store files (events.db and
 * read.db), each serving HTTP on its own port and each running every process manager and
 * projection. Clients alternate between them. Every message must be handed to the carrier
 * exactly once and every wallet must balance.
 *
 * What this found: both processes' projection runners applied the same batches to the shared
 * read.db (read models that add, like the wallet balance, counted twice). The read store's
 * commit is now a compare-and-set on the checkpoint the batch started from; the loser drops its
 * batch and resumes from the stored checkpoint (projection-runner.ts, read-store.port.ts).
 */
jest.setTimeout(180_000);
const { it, beforeAll } = embeddedStoreOnly(
  'scale-out shares the SQLite files between processes and reads the record from events.db itself',
);

const dataDir = mkdtempSync(join(tmpdir(), 'sms-wallet-scale-'));
const submissionLog = join(dataDir, 'carrier-submissions.log');
const ENV = {
  TEST_DLR_DELAY_MS: '200',
  TEST_CARRIER_SUBMISSION_LOG: submissionLog,
  LOG_LEVEL: 'warn',
  // The two processes share the dispatch partitions out within a second of the second one starting.
  DISPATCH_LEASE_RENEW_MS: '300',
};

let merchants: ProcMerchant[] = [];
let servers: ServerProcess[] = [];

beforeAll(async () => {
  merchants = await provisionMerchants(dataDir, 3, 2000);
  servers = await Promise.all([startServer({ dataDir, env: ENV }), startServer({ dataDir, env: ENV })]);
  // HTTP answers before a process's worker thread has started its dispatcher (on a busy machine,
  // many seconds before): the load must run while both dispatchers hold partitions, or the first
  // one up rightly dispatches everything before the second joins.
  await until(
    () => (holdersWithPartitions(dataDir).size === 2 ? true : undefined),
    120_000,
    'both dispatchers holding partitions',
  );
});

afterAll(async () => {
  await killAllStarted();
  rmSync(dataDir, { recursive: true, force: true });
});

it('two processes on one store under send load: each message submitted exactly once, wallets balance', async () => {
  const load = startLoad(() => servers.map((s) => s.baseUrl), merchants, 16);
  await until(() => (load.accepted().length >= 120 ? true : undefined), 90_000, '120 accepted sends');
  await load.stop();
  await sleep(500);

  expect(load.outcomes.filter((o) => o.status !== 200)).toEqual([]);
  const accepted = load.accepted();
  const ids = new Set(accepted);
  expect(ids.size).toBe(accepted.length);

  // Every accepted message is terminal, read through either process.
  await until(
    async () => {
      for (const [i, id] of accepted.entries()) {
        const merchant = load.outcomes.find((o) => o.id === id)!.merchant;
        const r = await servers[i % 2].request('GET', `/v1/messages/${id}`, { key: merchant.testKey });
        if (!['DELIVERED', 'FAILED'].includes(r.body?.status)) return undefined;
      }
      return true;
    },
    60_000,
    'every accepted message terminal on both processes',
  );
  const histories = messageHistories(dataDir);
  expect([...histories.values()].every(isFinished)).toBe(true);
  expect(new Set(histories.keys())).toEqual(ids);

  // The record: exactly one MessageSent per message that reached the carrier (FAILED here is the
  // sandbox's undeliverable receipt, which also comes after MessageSent).
  for (const [id, events] of histories) {
    expect({ id, sent: events.filter((e) => e.type === 'MessageSent').length }).toEqual({ id, sent: 1 });
  }
  // The dispatch partitions are split between the two processes: each message is dispatched by
  // the one holding its partition, and no per-message claim is recorded.
  expect([...histories.values()].flat().filter((e) => e.type === 'MessageClaimed')).toEqual([]);
  // The carrier: the simulator's submission log shows exactly one dispatcher submission per
  // message (`resubmit` lines would be TestCarrierResume re-scheduling receipts of SENT messages).
  const submits = readSubmissions(submissionLog).filter((s) => s.kind === 'submit');
  const perMessage = countBy(submits, (s) => s.messageId);
  expect([...ids].filter((id) => perMessage.get(id) !== 1)).toEqual([]);
  expect(perMessage.size).toBe(ids.size);
  const pids = new Set(submits.map((s) => s.pid));
  console.log(
    `scale-out: ${ids.size} messages, submissions by pid: ${JSON.stringify(Object.fromEntries(countBy(submits, (s) => String(s.pid))))}`,
  );
  // No message was submitted by both processes.
  const submitters = new Map<string, Set<number>>();
  for (const s of submits) submitters.set(s.messageId, (submitters.get(s.messageId) ?? new Set()).add(s.pid));
  expect([...submitters].filter(([, who]) => who.size !== 1)).toEqual([]);
  expect(pids.size).toBe(2); // both dispatched: the partitions were shared out
  // Both processes' WAL checkpoint threads kept running (under ts-node they once died at start).
  expect(readFileSync(join(dataDir, 'server.log'), 'utf8')).not.toContain(
    'the WAL checkpoint thread stopped',
  );

  // The wallets: no open reservation, and wallet:replay agrees with the shared read model.
  const delivered = deliveredCreditsByWallet(dataDir);
  const creditsAdded = new Map<string, number>();
  for (const e of readEvents(dataDir, 'wallet')) {
    if (e.type === 'CreditsAdded')
      creditsAdded.set(e.streamId, (creditsAdded.get(e.streamId) ?? 0) + e.data.sms);
  }
  await until(
    async () => {
      const balances = await Promise.all(
        merchants.map((m, i) =>
          servers[i % 2].request('GET', '/v1/billing', { key: m.testKey }).then((r) => r.body.sms_left),
        ),
      );
      return merchants.every(
        (m, i) => balances[i] === creditsAdded.get(`wallet-${m.wallet}`)! - (delivered.get(m.wallet) ?? 0),
      )
        ? true
        : undefined;
    },
    60_000,
    'sms_left on the API to equal credits in minus delivered',
  );
  for (const { code, replay } of await replayWallets(
    dataDir,
    merchants.map((m) => m.wallet),
  )) {
    expect({ code, consistent: replay.consistent }).toEqual({ code: 0, consistent: true });
    expect(replay.credits_in).toBe(replay.sms_left + replay.captured + replay.reserved);
    expect(replay.reserved).toBe(0);
    expect(replay.captured).toBe(delivered.get(replay.wallet) ?? 0);
    expect(replay.credits_in).toBe(creditsAdded.get(`wallet-${replay.wallet}`));
  }
});
