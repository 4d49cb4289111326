import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedStoreOnly } from '../support/engines';
import {
  killAllStarted,
  ProcMerchant,
  provisionMerchants,
  readEvents,
  ServerProcess,
  sleep,
  startServer,
  until,
} from '../support/server-process';
import { startSmtpServer, TestSmtpServer } from '../support/smtp-server';
import { startWebhookReceiver, WebhookReceiver } from '../support/webhook-receiver';
import { settledIn } from '../support/wallet-settlements';

/**
 * Issue 31: two server processes on one store, each running the balance watch, the mail outbox
 * and the webhook processes. Sends to each merchant alternate between them and take its wallet
 * below its low-balance alert: exactly one `LowBalanceAlerted`, one mail (through a real SMTP
 * server) and one `wallet.balance_low` delivery per wallet, whichever process saw what.
 */
jest.setTimeout(300_000);
const { it, beforeAll } = embeddedStoreOnly(
  'two processes share the SQLite files and the events are read from events.db',
);

const dataDir = mkdtempSync(join(tmpdir(), 'sms-wallet-alerts-'));
const THRESHOLD = 90;

let merchants: ProcMerchant[] = [];
let servers: ServerProcess[] = [];
let smtp: TestSmtpServer;
let hooks: WebhookReceiver;

beforeAll(async () => {
  smtp = await startSmtpServer();
  hooks = await startWebhookReceiver();
  merchants = await provisionMerchants(dataDir, 3);
  const env = {
    TEST_DLR_DELAY_MS: '20',
    SMTP_URL: smtp.url,
    MAIL_POLL_MS: '50',
    WEBHOOK_POLL_MS: '50',
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    LOG_LEVEL: 'warn',
  };
  servers = await Promise.all([startServer({ dataDir, env }), startServer({ dataDir, env })]);
});

afterAll(async () => {
  await killAllStarted();
  await smtp?.close();
  await hooks?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('one alert, one mail and one webhook event per crossing with two processes on one store', async () => {
  for (const [i, m] of merchants.entries()) {
    const server = servers[i % 2];
    expect(
      (await server.request('PUT', '/v1/wallet/alerts', { key: m.testKey, body: { low_balance: THRESHOLD } }))
        .status,
    ).toBe(200);
    const endpoint = await servers[(i + 1) % 2].request('POST', '/v1/webhook_endpoints', {
      key: m.testKey,
      body: { url: hooks.url, events: ['wallet.balance_low'] },
    });
    expect(endpoint.status).toBe(200);
  }
  // 15 sends each (100 → 85), alternating between the processes, all merchants at once.
  await Promise.all(
    merchants.map(async (m) => {
      for (let n = 0; n < 15; n++) {
        const sent = await servers[n % 2].request('POST', '/v1/messages', {
          key: m.testKey,
          body: { to: '+233200000001', sender_id: 'MyShop', message: `alert ${n}`, type: 'transactional' },
        });
        expect(sent.status).toBe(200);
      }
    }),
  );
  const lowMails = () => smtp.mails.filter((mail) => mail.subject === 'Your TEST credits are running low');
  await until(
    () => (lowMails().length >= merchants.length ? true : undefined),
    120_000,
    'a low-balance mail per merchant',
  );
  await until(
    () =>
      hooks.received.filter((r) => r.raw.includes('wallet.balance_low')).length >= merchants.length
        ? true
        : undefined,
    120_000,
    'a wallet.balance_low delivery per merchant',
  );
  // Every send settled and both processes' workers idle a while: nothing more may arrive.
  await until(
    async () => {
      const settled = settledIn(readEvents(dataDir, 'wallet')).captured.length;
      return settled === merchants.length * 15 ? true : undefined;
    },
    120_000,
    'every send captured',
  );
  await sleep(3_000);

  const alerted = readEvents(dataDir, 'wallet').filter((e) => e.type === 'LowBalanceAlerted');
  expect(alerted.map((e) => e.data.walletId).sort()).toEqual(merchants.map((m) => m.wallet).sort());
  for (const m of merchants) {
    expect(lowMails().filter((mail) => mail.to.includes(m.email))).toHaveLength(1);
  }
  const deliveries = hooks.received.filter((r) => r.raw.includes('wallet.balance_low'));
  expect(deliveries).toHaveLength(merchants.length);
  expect(new Set(deliveries.map((d) => JSON.parse(d.raw).id)).size).toBe(merchants.length);
  const queued = readEvents(dataDir, 'mail').filter(
    (e) => e.type === 'MailQueued' && e.data.template.kind === 'low_balance',
  );
  expect(queued).toHaveLength(merchants.length);
  expect(
    readEvents(dataDir, 'mail').filter(
      (e) => e.type === 'MailSent' && queued.some((q) => e.streamId === `mail-${q.data.mailId}`),
    ),
  ).toHaveLength(merchants.length);
});
