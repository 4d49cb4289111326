import { ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakePaystackServer } from '../../src/billing/adapters/paystack/fake-paystack-server.test-support';
import { WalletBalances } from '../../src/wallet/application/wallet-balances.query';
import { CapturedLogs } from '../support/captured-logs';
import { storeNamespaceEnv } from '../support/engines';
import { createMerchant } from '../support/merchant';
import { SANDBOX, sendBody } from '../support/messaging';
import { freePort, startTestApp } from '../support/test-app';
import { ConsoleBrowser as Browser, visitSignIn } from '../support/console-form';

const ROOT = join(__dirname, '..', '..');
const random = (n = 24) => randomBytes(n).toString('base64url');

/**
 * API.md: a key never appears in a log line. The real server (src/main.ts, Nest's default logger
 * at every level, debug included) runs as its own process through sign-up, key mint, sends,
 * failing requests, a wrong console password, a forged Paystack webhook and a LIVE checkout;
 * nothing secret may show up on its stdout or stderr.
 */
describe('log hygiene: no secret reaches the logs', () => {
  const password = `pw-${random()}`;
  const wrongPassword = `wrong-${random()}`;
  const secrets = {
    paystackSecret: `sk_test_${random()}`,
    carrierPassword: `carrierpw${random(12)}`,
  };
  let dataDir: string;
  let server: ChildProcess;
  let fake: FakePaystackServer;
  let baseUrl: string;
  let logs = '';

  beforeAll(async () => {
    fake = new FakePaystackServer({ secretKey: secrets.paystackSecret });
    await fake.start();
    dataDir = mkdtempSync(join(tmpdir(), 'sms-wallet-logs-'));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', join(ROOT, 'src/main.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: baseUrl,
        DATA_DIR: dataDir,
        ...storeNamespaceEnv(dataDir),
        LOG_LEVEL: 'debug',
        TEST_DLR_DELAY_MS: '100',
        PAYSTACK_SECRET_KEY: secrets.paystackSecret,
        PAYSTACK_BASE_URL: fake.baseUrl,
        CARRIER_MTN_URL: `smpp://mtnsys:${secrets.carrierPassword}@127.0.0.1:9`,
        // hooks.example does not resolve here: the endpoint (and its secret) must still be made.
        WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (c: Buffer) => (logs += c.toString('utf8')));
    server.stderr!.on('data', (c: Buffer) => (logs += c.toString('utf8')));
    const deadline = Date.now() + 60_000;
    while (!/listening on/.test(logs)) {
      if (server.exitCode !== null || Date.now() > deadline)
        throw new Error(`server did not start:\n${logs}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 90_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    server?.stdout?.destroy();
    server?.stderr?.destroy();
    await fake?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps keys, passwords, session cookies, the Paystack key and webhook secrets out of stdout and stderr', async () => {
    const found: Record<string, string> = { ...secrets, password, wrongPassword };
    const api = (
      method: string,
      path: string,
      key?: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) =>
      fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: (await r.json().catch(() => null)) as any })); // eslint-disable-line @typescript-eslint/no-explicit-any

    // Sign up in the console: a session cookie.
    const browser = new Browser(baseUrl);
    const email = `logs-${random(6)}@example.com`.toLowerCase();
    const signUp = await browser.go('POST', '/console/signup', {
      _csrf: await browser.csrf('/console/signup'),
      email,
      password,
    });
    expect(signUp.status).toBeGreaterThanOrEqual(300);
    expect(signUp.status).toBeLessThan(400);
    found.sessionCookie = browser.cookies.get('sms_console_session')!;
    expect(found.sessionCookie).toBeTruthy();

    // Mint a TEST and a LIVE key in the console; each is shown once.
    for (const environment of ['TEST', 'LIVE']) {
      const minted = await browser.go('POST', '/console/keys', {
        ...(await browser.formTokens('/console/keys')),
        environment,
        name: 'ci',
      });
      expect(minted.status).toBeLessThan(400);
      const page = await browser.go('GET', '/console/keys');
      const key = /sms_(?:test|live)_[A-Za-z0-9_-]{32,}/.exec(page.html)?.[0];
      if (!key) throw new Error(`no minted ${environment} key on the keys page`);
      found[`${environment.toLowerCase()}Key`] = key;
    }
    const testKey = found.testKey;

    // Sends (delivered, failed, rejected), a quote, reads; wait for the outcomes to be processed.
    for (const to of [SANDBOX.delivered, SANDBOX.failed, SANDBOX.rejected]) {
      expect(
        (await api('POST', '/v1/messages', testKey, sendBody({ to }), { 'idempotency-key': `idem-${to}` }))
          .status,
      ).toBe(200);
    }
    expect((await api('POST', '/v1/messages/quote', testKey, sendBody())).status).toBe(200);
    // LIVE: a route to the configured carrier, refused for its sender ID (not approved for the
    // account, 422) before any credit is looked at.
    expect((await api('POST', '/v1/messages', found.liveKey, sendBody({ to: '+233241234567' }))).status).toBe(
      422,
    );

    // Failing requests: bad body, malformed JSON, unknown and look-alike keys, unknown ids.
    const unknownKey = `sms_test_${random(32)}`;
    found.unknownKey = unknownKey;
    expect((await api('POST', '/v1/messages', testKey, { to: 'nope' })).status).toBe(400);
    expect((await api('POST', '/v1/messages', testKey, '{"to":')).status).toBe(400);
    expect((await api('GET', '/v1/billing', unknownKey)).status).toBe(401);
    expect((await api('GET', '/v1/billing', `${testKey}x`)).status).toBe(401);
    expect((await api('GET', '/v1/messages/msg_doesnotexist', testKey)).status).toBe(404);

    // Webhook endpoints (when the service has them): their secrets stay out of the logs too.
    const endpoint = await api('POST', '/v1/webhook_endpoints', testKey, {
      url: 'https://hooks.example/sms',
      events: ['message.delivered'],
    });
    if (endpoint.status === 200 && typeof endpoint.body?.secret === 'string')
      found.webhookSecret = endpoint.body.secret;

    // A wrong password in the console.
    const visitor = await visitSignIn(baseUrl);
    const wrong = await fetch(`${baseUrl}/console/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: visitor.cookie },
      body: new URLSearchParams({ _csrf: visitor.csrf, email, password: wrongPassword }).toString(),
      redirect: 'manual',
    });
    expect(wrong.status).toBe(200);
    expect(await wrong.text()).not.toContain(wrongPassword);

    // A forged Paystack webhook (bad signature), and a LIVE checkout handed to (fake) Paystack.
    const forged = JSON.stringify({
      event: 'charge.success',
      data: { reference: 'chk_x', amount: 5000, currency: 'GHS' },
    });
    const badSignature = createHmac('sha512', 'not-the-secret').update(forged).digest('hex');
    expect(
      (
        await api('POST', '/v1/billing/webhooks/paystack', undefined, forged, {
          'x-paystack-signature': badSignature,
        })
      ).status,
    ).toBe(401);
    const checkout = await api('POST', '/v1/billing/checkout', found.liveKey, {
      package_id: 'pkg_starter',
      success_url: 'https://shop.example/ok',
    });
    expect(checkout.status).toBe(200);
    const start = await fetch(`${baseUrl}/checkout/${checkout.body.id}/start`, {
      method: 'POST',
      redirect: 'manual',
    });
    await start.text();
    expect(start.status).toBe(303);

    await new Promise((r) => setTimeout(r, 1_500)); // outcomes, settlement, retries: their log lines too
    expect(logs).toMatch(/listening on/); // the capture works
    const leaked = Object.entries(found).filter(([, secret]) => secret && logs.includes(secret));
    expect(leaked.map(([name]) => name)).toEqual([]);
    // Not even a key's secret part on its own.
    for (const key of [found.testKey, found.liveKey]) expect(logs).not.toContain(key.slice(9));
  }, 120_000);

  it('keeps phone numbers in request paths out of the access log (issue 28): DELETE /v1/opt_outs/:phone_number', async () => {
    const browser = new Browser(baseUrl);
    const email = `logs-phone-${random(6)}@example.com`.toLowerCase();
    await browser.go('POST', '/console/signup', {
      _csrf: await browser.csrf('/console/signup'),
      email,
      password,
    });
    await browser.go('POST', '/console/keys', {
      ...(await browser.formTokens('/console/keys')),
      environment: 'TEST',
      name: 'phones',
    });
    const key = /sms_test_[A-Za-z0-9_-]{32,}/.exec((await browser.go('GET', '/console/keys')).html)?.[0];
    if (!key) throw new Error('no minted key on the keys page');
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (r) => ({
        status: r.status,
        id: r.headers.get('x-request-id') ?? '',
        text: await r.text(),
      }));

    const digits = ['233241119988', '233241119977', '233241119966'];
    expect((await call('POST', '/v1/opt_outs', { phone_number: `+${digits[0]}` })).status).toBe(200);
    const requests = [
      await call('DELETE', `/v1/opt_outs/%2B${digits[0]}`), // as encodeURIComponent writes it: 200
      await call('DELETE', `/v1/opt_outs/+${digits[1]}`), // unencoded: 404, nobody's
      await call('GET', `/v1/opt_outs/${digits[2]}`), // no such route: 404
    ];
    expect(requests.map((r) => r.status)).toEqual([200, 404, 404]);

    // Each request's access line is written once it is answered.
    const accessLines = () =>
      logs
        .split('\n')
        .filter((line) => line.includes('"context":"access"'))
        .filter((line) => requests.some((r) => line.includes(r.id)));
    const deadline = Date.now() + 30_000;
    while (accessLines().length < requests.length && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const lines = accessLines();
    expect(lines).toHaveLength(requests.length);
    for (const number of digits) expect(lines.join('\n')).not.toContain(number);
    expect(JSON.parse(lines.find((line) => line.includes(requests[0].id)) ?? '{}')).toMatchObject({
      method: 'DELETE',
      route: '/v1/opt_outs/:phone_number',
      path: '/v1/opt_outs/:phone_number',
      status: 200,
    });
  }, 120_000);
});

describe('the 500 path leaks nothing', () => {
  it('answers internal_error without the message, SQL or stack of an internal error', async () => {
    const internal = 'SELECT secret FROM api_keys WHERE key_hash = ?';
    // The error is logged in full for the operator (asserted below), not printed into the run.
    const logs = new CapturedLogs();
    const t = await startTestApp({
      logs,
      override: (builder) =>
        builder.overrideProvider(WalletBalances).useValue({
          get: async () => {
            throw new Error(`SqliteError: no such column: ${internal}`);
          },
        }),
    });
    try {
      const m = await createMerchant(t);
      const response = await t.request('GET', '/v1/billing', { key: m.testKey });
      expect(response.status).toBe(500);
      expect(response.body).toEqual({
        error: {
          type: 'api_error',
          code: 'internal_error',
          message: expect.any(String),
          request_id: response.headers.get('x-request-id'),
        },
      });
      expect(response.text).not.toContain('SELECT');
      expect(response.text).not.toContain('secret');
      expect(response.text).not.toContain('Sqlite');
      expect(response.text).not.toMatch(/\bat .*:\d+:\d+/); // no stack frame
      expect(response.text).not.toContain(m.testKey);
      expect(logs.errors()).toEqual([
        expect.stringContaining(`[http] GET /v1/billing ${response.headers.get('x-request-id')}`),
      ]);
      expect(logs.errors()[0]).toContain(`SqliteError: no such column: ${internal}`);
    } finally {
      await t.close();
    }
  });
});
