import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedStoreOnly } from '../support/engines';
import {
  countBy,
  ensureBuilt,
  killAllStarted,
  LoggedEvent,
  ProcMerchant,
  provisionMerchants,
  readEvents,
  replayWallets,
  ServerProcess,
  startServer,
  until,
} from '../support/server-process';
import { request } from '../support/test-app';

/**
 * Campaigns on the real, built server (`dist/main.js`) as its own process, on the embedded store:
 * a campaign whose messages are being written when its process is killed (SIGKILL) is resumed
 * from the log and reaches every recipient exactly once; and of two processes on one store only
 * the holder of a campaign's lease writes it, the other taking over at once when it dies.
 * Campaigns are scheduled an hour ahead, so nothing is dispatched: the subject is the writing.
 */
jest.setTimeout(600_000);
const { it, beforeAll } = embeddedStoreOnly('the campaign is checked against events.db itself');

const dataDir = mkdtempSync(join(tmpdir(), 'sms-wallet-campaigns-'));
const ENV = {
  LOG_LEVEL: 'warn',
  CAMPAIGN_POLL_MS: '100',
  CONTACT_IMPORT_POLL_MS: '100',
  HEARTBEAT_INTERVAL_MS: '200',
  INSTANCE_DEAD_AFTER_MS: '1000',
};
const ROWS = 20_000;
const CHUNKS = ROWS / 1000;

let merchant: ProcMerchant;
let server: ServerProcess;
let groupId: string;

beforeAll(async () => {
  await ensureBuilt();
  [merchant] = await provisionMerchants(dataDir, 1, 2 * ROWS);
  server = await startServer({ dataDir, env: ENV, built: true });
  groupId = (await json(server, 'POST', '/v1/groups', { name: 'Everyone' })).body.id;
  const rows = Array.from({ length: ROWS }, (_, i) => `02470${String(i).padStart(5, '0')},Parent ${i}`);
  const started = await request(server.baseUrl, 'POST', `/v1/contact_imports?group=${groupId}&default_country=GH`, {
    key: merchant.testKey,
    body: `phone_number,name\n${rows.join('\n')}\n`,
    headers: { 'content-type': 'text/csv' },
  });
  expect(started.status).toBe(202);
  await until(
    async () => {
      const progress = (await json(server, 'GET', `/v1/contact_imports/${started.body.id}`)).body;
      return progress.status === 'completed' ? progress : undefined;
    },
    300_000,
    'the contacts to be imported',
  );
});

afterAll(async () => {
  await killAllStarted();
  rmSync(dataDir, { recursive: true, force: true });
});

function json(s: ServerProcess, method: string, path: string, body?: unknown) {
  return s.request(method, path, { key: merchant.testKey, ...(body === undefined ? {} : { body }) });
}

const campaignBody = (name: string) => ({
  name,
  sender_id: 'School',
  type: 'transactional',
  message: 'Dear {{name}}, school resumes on Monday.',
  audience: { groups: [groupId] },
  send_at: new Date(Date.now() + 3_600_000).toISOString(),
});

const campaignEvents = (campaignId: string) =>
  readEvents(dataDir, 'campaign').filter((e) => e.streamId === `campaign-${campaignId}`);
const chunksWritten = (campaignId: string) =>
  campaignEvents(campaignId).filter((e) => e.type === 'CampaignChunkQueued').length;

/** Waits for the campaign's messages to be all written, as the log says. */
const expanded = (campaignId: string) =>
  until(
    () => (campaignEvents(campaignId).some((e) => e.type === 'CampaignExpanded') ? true : undefined),
    300_000,
    `campaign ${campaignId} to be written`,
  );

/**
 * The record of one campaign: each chunk written once, in order, each by the process holding the
 * campaign then; one message per recipient, each reserved once from the campaign's one hold.
 */
function expectWrittenOnce(campaignId: string): { holders: string[] } {
  const events = campaignEvents(campaignId);
  let holder: string | null = null;
  const holders: string[] = [];
  const chunks: number[] = [];
  for (const e of events) {
    if (e.type === 'CampaignCreated' || e.type === 'CampaignTaken') {
      holder = e.data.instance;
      if (holders[holders.length - 1] !== holder) holders.push(holder as string);
    }
    if (e.type === 'CampaignChunkQueued') {
      expect(e.data.instance).toBe(holder);
      chunks.push(e.data.chunk);
    }
  }
  expect(chunks).toEqual(Array.from({ length: CHUNKS }, (_, i) => i));

  const prefix = `message-msg_${campaignId.slice('cmp_'.length)}`;
  const accepted = readEvents(dataDir, 'message').filter(
    (e: LoggedEvent) => e.streamId.startsWith(prefix) && e.type === 'MessageScheduled',
  );
  expect(accepted).toHaveLength(ROWS);
  expect(new Set(accepted.map((e) => e.streamId)).size).toBe(ROWS);
  expect(new Set(accepted.map((e) => e.data.to)).size).toBe(ROWS);
  expect(accepted.every((e) => e.data.campaignId === campaignId)).toBe(true);

  const wallet = readEvents(dataDir, 'wallet');
  const held = wallet.filter((e) => e.type === 'CreditsHeld' && e.data.holdId === campaignId);
  expect(held.map((e) => e.data.sms)).toEqual([ROWS]);
  const reserved = wallet.filter((e) => e.type === 'CreditsReserved' && e.data.holdId === campaignId);
  expect(reserved).toHaveLength(ROWS);
  expect([...countBy(reserved, (e) => e.data.messageId).values()].every((n) => n === 1)).toBe(true);
  return { holders };
}

it('a campaign killed (SIGKILL) while its messages are written resumes after the restart and reaches each recipient once', async () => {
  const before = (await json(server, 'GET', '/v1/billing')).body.sms_left;
  const created = await json(server, 'POST', '/v1/campaigns', campaignBody('Resumed'));
  expect(created.status).toBe(200);
  expect(created.body).toMatchObject({ recipients: ROWS, credits_reserved: ROWS, status: 'scheduled' });
  const campaignId: string = created.body.id;

  await until(() => (chunksWritten(campaignId) >= 3 ? true : undefined), 120_000, 'chunks to be written');
  const killed = await server.kill('SIGKILL');
  expect(killed.signal).toBe('SIGKILL');
  expect(chunksWritten(campaignId)).toBeLessThan(CHUNKS);

  server = await startServer({ dataDir, env: ENV, built: true, port: server.port });
  await expanded(campaignId);
  const { holders } = expectWrittenOnce(campaignId);
  expect(holders.length).toBeGreaterThanOrEqual(2); // the killed process, then the restarted one

  const counted = await until(
    async () => {
      const c = (await json(server, 'GET', `/v1/campaigns/${campaignId}`)).body;
      return c.counts?.SCHEDULED === ROWS ? c : undefined;
    },
    120_000,
    'the read model to count every message',
  );
  expect(counted.status).toBe('scheduled');
  expect((await json(server, 'GET', '/v1/billing')).body.sms_left).toBe(before - ROWS);

  // Canceled: every message CANCELED and every credit back, once.
  const canceled = await json(server, 'POST', `/v1/campaigns/${campaignId}/cancel`);
  expect(canceled.status).toBe(200);
  expect(canceled.body).toMatchObject({ status: 'canceled', counts: { SCHEDULED: 0, CANCELED: ROWS } });
  expect((await json(server, 'GET', '/v1/billing')).body.sms_left).toBe(before);
  const [replayed] = await replayWallets(dataDir, [merchant.wallet]);
  expect(replayed.replay).toMatchObject({ consistent: true, sms_left: before, reserved: 0 });
});

it('two processes on one store: only the holder writes a campaign, and the other takes over at once when it dies', async () => {
  const second = await startServer({ dataDir, env: ENV, built: true });
  const created = await json(server, 'POST', '/v1/campaigns', campaignBody('Two processes'));
  expect(created.status).toBe(200);
  const campaignId: string = created.body.id;
  await until(() => (chunksWritten(campaignId) >= 4 ? true : undefined), 120_000, 'chunks to be written');
  // While the first process lives, the second (polling every 100 ms) has not taken it.
  const holdersWhileAlive = new Set(
    campaignEvents(campaignId)
      .filter((e) => e.type === 'CampaignCreated' || e.type === 'CampaignTaken')
      .map((e) => e.data.instance),
  );
  expect(holdersWhileAlive.size).toBe(1);
  await server.kill('SIGKILL');
  expect(chunksWritten(campaignId)).toBeLessThan(CHUNKS);

  await expanded(campaignId);
  const { holders } = expectWrittenOnce(campaignId);
  expect(holders).toHaveLength(2);
  expect(holders[0]).toBe([...holdersWhileAlive][0]);
  const counted = await until(
    async () => {
      const c = (await json(second, 'GET', `/v1/campaigns/${campaignId}`)).body;
      return c.counts?.SCHEDULED === ROWS ? c : undefined;
    },
    120_000,
    'the read model to count every message',
  );
  expect(counted.recipients).toBe(ROWS);
  server = second;
});
