import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SmscSimulator } from '../../src/messaging/adapters/smpp/smsc-simulator';
import { WalletService } from '../../src/wallet/application/wallet.service';
import { embeddedStoreOnly } from '../support/engines';
import { createMerchant, Merchant } from '../support/merchant';
import { killAllStarted, ServerProcess, startServer } from '../support/server-process';
import { eventually, startTestApp } from '../support/test-app';
import { startWebhookReceiver, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 30: a verification's code is nowhere in clear. The real server (its own process, every
 * log level on, its output captured) runs TEST verifications with 10-digit codes (the answer's
 * test_code tells them) and LIVE ones over SMPP to the SMSC simulator (which tells what it was
 * handed); they are delivered and checked, with webhooks on. Then every file of the data
 * directory (events.db, its -wal and -shm, the read store, the outbox, the log) and every webhook
 * body is searched for each code, while the server runs and after it stopped: none is found.
 * A control proves the search can find: an ordinary message's 10-digit text is found.
 */
jest.setTimeout(240_000);
const { it, beforeAll } = embeddedStoreOnly('the secrecy check reads the embedded stores’ files');

const FINAL = new Set(['DELIVERED', 'FAILED', 'EXPIRED']);

/** Every regular file under `dir`, with its bytes. */
function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  const out: { path: string; bytes: Buffer }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) continue; // a -shm or -wal removed meanwhile
    if (stat.isDirectory()) out.push(...filesUnder(path));
    else if (stat.isFile()) out.push({ path, bytes: readFileSync(path) });
  }
  return out;
}

/** The files (and other texts) that hold any of the codes, by code. */
function whereFound(codes: readonly string[], dir: string, texts: Record<string, string>) {
  const found: Record<string, string[]> = {};
  const files = filesUnder(dir);
  for (const code of codes) {
    const needle = Buffer.from(code, 'ascii');
    const utf16 = Buffer.from(code, 'utf16le');
    const hits = [
      ...files.filter((f) => f.bytes.includes(needle) || f.bytes.includes(utf16)).map((f) => f.path),
      ...Object.entries(texts)
        .filter(([, text]) => text.includes(code))
        .map(([name]) => name),
    ];
    if (hits.length) found[code] = hits;
  }
  return found;
}

describe('Verify: the code is nowhere in clear', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sms-wallet-verify-secrecy-'));
  let smsc: SmscSimulator;
  let server: ServerProcess;
  let hooks: WebhookReceiver;
  let m: Merchant;
  const codes: string[] = [];
  let marker = '';

  beforeAll(async () => {
    smsc = await new SmscSimulator({ systemId: 'mtn', password: 'mtn', receiptDelayMs: 50 }).listen();
    hooks = await startWebhookReceiver();
    // Provisioned in-process on the same files (sign-up, keys, MyShop approved, LIVE credits).
    const setup = await startTestApp({ dataDir, env: { RUN_PROCESS_MANAGERS: 'false' } });
    try {
      m = await createMerchant(setup);
      const granted = await setup.app.get(WalletService).addCredits(m.wallets.LIVE, {
        sourceId: `grant:${m.wallets.LIVE}`,
        source: 'operator_grant',
        sms: 50,
        reason: 'secrecy suite',
      });
      if (!granted.ok) throw granted.error;
    } finally {
      await setup.close();
    }
    server = await startServer({
      dataDir,
      env: {
        LOG_LEVEL: 'debug',
        TEST_DLR_DELAY_MS: '50',
        CARRIER_MTN_URL: smsc.url(),
        WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      },
    });
  }, 180_000);

  afterAll(async () => {
    await killAllStarted();
    await hooks?.close();
    await smsc?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (key: string, method: string, path: string, body?: unknown) =>
    server.request(method, path, { key, body });
  const finalMessage = (key: string, id: string) =>
    eventually(
      async () => {
        const read = await call(key, 'GET', `/v1/messages/${id}`);
        return FINAL.has(read.body?.status) ? read.body : undefined;
      },
      60_000,
      `message ${id} final`,
    );

  it('runs TEST and LIVE verifications to the end with webhooks on', async () => {
    // TEST only: a LIVE endpoint must be https, and the receiver here is plain http.
    const endpoint = await call(m.testKey, 'POST', '/v1/webhook_endpoints', {
      url: hooks.url,
      events: ['message.sent', 'message.delivered', 'verification.approved', 'verification.failed'],
    });
    expect(endpoint.status).toBe(200);
    for (let i = 0; i < 6; i++) {
      const created = await call(m.testKey, 'POST', '/v1/verifications', {
        to: `+23324${i}765432`,
        sender_id: 'MyShop',
        code_length: 10,
        max_checks: 2,
      });
      expect(created.status).toBe(200);
      codes.push(created.body.test_code);
      expect((await finalMessage(m.testKey, created.body.message_id)).message).toBe(
        'Your verification code is **********',
      );
      // Half approved with their code, half failed by two wrong ones.
      const guesses = i % 2 === 0 ? [created.body.test_code] : ['0000000000', '9999999999'];
      for (const code of guesses)
        await call(m.testKey, 'POST', `/v1/verifications/${created.body.id}/check`, { code });
    }
    for (let i = 0; i < 3; i++) {
      const to = `+23354${i}765432`;
      const created = await call(m.liveKey, 'POST', '/v1/verifications', {
        to,
        sender_id: 'MyShop',
        message: 'MyShop: {{code}} is your code',
        code_length: 10,
      });
      expect(created.status).toBe(200);
      expect(created.body).not.toHaveProperty('test_code');
      const submitted = await eventually(
        async () => smsc.submissionsTo(to)[0],
        60_000,
        'the SMSC to get the SMS',
      );
      const code = /([0-9]{10}) is your code/.exec(submitted.text ?? '')?.[1];
      expect(code).toMatch(/^[0-9]{10}$/);
      codes.push(code!);
      expect((await finalMessage(m.liveKey, created.body.message_id)).status).toBe('DELIVERED');
      const checked = await call(m.liveKey, 'POST', `/v1/verifications/${created.body.id}/check`, { code });
      expect(checked.body.status).toBe('approved');
    }
    // The control: an ordinary message's text is recorded as sent, so the search finds what is there.
    marker = String(1_000_000_000 + Math.floor(Math.random() * 8_999_999_999));
    const plain = await call(m.testKey, 'POST', '/v1/messages', {
      to: '+233241999999',
      sender_id: 'MyShop',
      message: `Order ${marker} has shipped`,
      type: 'transactional',
    });
    expect(plain.status).toBe(200);
    await finalMessage(m.testKey, plain.body.id);
    // Everything downstream has run: read models, webhooks (approved, failed) delivered.
    await eventually(
      async () => {
        const list = await call(m.testKey, 'GET', '/v1/verifications');
        return list.body.data.filter((v: { status: string }) => v.status !== 'pending').length === 6
          ? true
          : undefined;
      },
      60_000,
      'the read model',
    );
    await eventually(
      async () =>
        hooks.received.filter((h) => h.raw.includes('"verification.')).length >= 6 ? true : undefined,
      60_000,
      'the verification webhooks',
    );
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('finds no code in the data directory, the log or a webhook, while the server runs and after', async () => {
    expect(codes).toHaveLength(9);
    const texts = () => ({
      'server log': readFileSync(server.logFile, 'utf8'),
      webhooks: hooks.received.map((h) => h.raw).join('\n'),
    });
    const names = filesUnder(dataDir).map((f) => f.path.slice(dataDir.length + 1));
    expect(names).toEqual(expect.arrayContaining(['events.db', 'events.db-wal', 'read.db', 'server.log']));
    expect(whereFound([marker], dataDir, texts())[marker]).toEqual(
      expect.arrayContaining([expect.stringMatching(/events\.db(-wal)?$/)]),
    );
    expect(whereFound(codes, dataDir, texts())).toEqual({});

    await server.kill('SIGTERM');
    expect(whereFound(codes, dataDir, texts())).toEqual({});
    // The log was written at its most verbose: every request, the checks' included.
    expect(readFileSync(server.logFile, 'utf8')).toContain('"route":"/v1/verifications/:id/check"');
  });
});
