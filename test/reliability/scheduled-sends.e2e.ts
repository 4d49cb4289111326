import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedStoreOnly } from '../support/engines';
import {
  countBy,
  ensureBuilt,
  holdersWithPartitions,
  killAllStarted,
  messageHistories,
  ProcMerchant,
  provisionMerchants,
  readEvents,
  readSubmissions,
  ServerProcess,
  startServer,
  until,
} from '../support/server-process';
import { settledIn } from '../support/wallet-settlements';

/**
 * Issue 18, scheduled sends across processes: a scheduled message lives in the log and the
 * dispatcher's durable pending list, so a server killed (-9) between the accept and send_at
 * sends it once it is back; and with two processes on one store, the dispatch lease of its
 * partition lets exactly one of them make it due and submit it.
 */
jest.setTimeout(240_000);
const { it, beforeAll } = embeddedStoreOnly(
  'scheduled sends run SQLite servers as processes and read the record (events.db) itself',
);

const dataDirs: string[] = [];
// The built server (dist/main.js), as `npm start` runs it: it starts in seconds, not tens of them.
beforeAll(() => ensureBuilt(), 180_000);
afterAll(async () => {
  await killAllStarted();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

function freshStore(tag: string) {
  const dataDir = mkdtempSync(join(tmpdir(), `sms-wallet-${tag}-`));
  dataDirs.push(dataDir);
  const submissionLog = join(dataDir, 'carrier-submissions.log');
  const env = {
    TEST_DLR_DELAY_MS: '100',
    TEST_CARRIER_SUBMISSION_LOG: submissionLog,
    LOG_LEVEL: 'warn',
    DISPATCH_LEASE_RENEW_MS: '300',
  };
  return { dataDir, submissionLog, env };
}

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

async function schedule(
  servers: readonly ServerProcess[],
  merchant: ProcMerchant,
  count: number,
  sendAt: string,
) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = await servers[i % servers.length].request('POST', '/v1/messages', {
      key: merchant.testKey,
      body: {
        to: '+233241234567',
        sender_id: 'Sched',
        message: `at ${sendAt} #${i}`,
        type: 'transactional',
        send_at: sendAt,
      },
    });
    expect({ status: r.status, state: r.body?.status }).toEqual({ status: 200, state: 'SCHEDULED' });
    ids.push(r.body.id);
  }
  return ids;
}

function allDelivered(server: ServerProcess, merchant: ProcMerchant, ids: readonly string[]) {
  return until(
    async () => {
      for (const id of ids) {
        const r = await server.request('GET', `/v1/messages/${id}`, { key: merchant.testKey });
        if (r.body?.status !== 'DELIVERED') return undefined;
      }
      return true;
    },
    120_000,
    'every scheduled message DELIVERED',
  );
}

/** Each message: one MessageDue at or after send_at, one MessageSent, one carrier submission. */
function expectDispatchedOnceEach(
  dataDir: string,
  submissionLog: string,
  ids: readonly string[],
  sendAt: string,
) {
  const histories = messageHistories(dataDir);
  for (const id of ids) {
    const events = histories.get(id) ?? [];
    const due = events.filter((e) => e.type === 'MessageDue');
    expect({
      id,
      first: events[0]?.type,
      due: due.length,
      sent: events.filter((e) => e.type === 'MessageSent').length,
      dueNotEarly: due.every((e) => Date.parse(e.data.at) >= Date.parse(sendAt)),
    }).toEqual({ id, first: 'MessageScheduled', due: 1, sent: 1, dueNotEarly: true });
  }
  const submits = readSubmissions(submissionLog).filter((s) => s.kind === 'submit');
  const perMessage = countBy(submits, (s) => s.messageId);
  expect(ids.filter((id) => perMessage.get(id) !== 1)).toEqual([]);
  return submits;
}

it('a message scheduled before a kill -9 is sent at its time by the restarted server, once', async () => {
  const { dataDir, submissionLog, env } = freshStore('sched-restart');
  const [merchant] = await provisionMerchants(dataDir, 1);
  const first = await startServer({ dataDir, env, built: true });
  const sendAt = inMs(20_000);
  const ids = await schedule([first], merchant, 5, sendAt);
  await first.kill('SIGKILL');
  // The restart must fall between the accept and send_at for this to prove anything.
  expect(Date.now()).toBeLessThan(Date.parse(sendAt));
  expect(readSubmissions(submissionLog)).toEqual([]);

  const second = await startServer({ dataDir, env, built: true });
  await allDelivered(second, merchant, ids);
  const submits = expectDispatchedOnceEach(dataDir, submissionLog, ids, sendAt);
  expect(new Set(submits.map((s) => s.pid))).toEqual(new Set([second.pid]));
  // Credits: reserved at the accept, captured on delivery: 100 free TEST credits minus 5.
  await until(
    async () =>
      (await second.request('GET', '/v1/billing', { key: merchant.testKey })).body.sms_left === 95
        ? true
        : undefined,
    60_000,
    'sms_left 95',
  );
  const { captured } = settledIn(readEvents(dataDir, 'wallet'));
  expect(captured.sort()).toEqual([...ids].sort());
});

it('two processes on one store never dispatch a scheduled message twice', async () => {
  const { dataDir, submissionLog, env } = freshStore('sched-scale');
  const [merchant] = await provisionMerchants(dataDir, 1, 100);
  const servers = await Promise.all([
    startServer({ dataDir, env, built: true }),
    startServer({ dataDir, env, built: true }),
  ]);
  // Both dispatchers must hold partitions before the messages come due, or one does it all.
  await until(
    () => (holdersWithPartitions(dataDir).size === 2 ? true : undefined),
    120_000,
    'both dispatchers holding partitions',
  );
  const sendAt = inMs(10_000);
  const ids = await schedule(servers, merchant, 40, sendAt);
  expect(Date.now()).toBeLessThan(Date.parse(sendAt));
  await allDelivered(servers[1], merchant, ids);
  const submits = expectDispatchedOnceEach(dataDir, submissionLog, ids, sendAt);
  const submitters = new Map<string, Set<number>>();
  for (const s of submits) submitters.set(s.messageId, (submitters.get(s.messageId) ?? new Set()).add(s.pid));
  expect([...submitters].filter(([, who]) => who.size !== 1)).toEqual([]);
  // Both took part: each made due and sent the messages of the partitions it holds.
  expect(new Set(submits.map((s) => s.pid))).toEqual(new Set(servers.map((s) => s.pid)));
});
