import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_OPTIONS, WebhookOptions } from '../../src/webhooks/webhooks.options';
import { ConsoleBrowser, previewSendForm } from '../support/console-form';
import { startCheckout, submitForm } from '../support/hosted-checkout';
import { createMerchant, type Merchant } from '../support/merchant';
import { finalState, SANDBOX, send, sendBody } from '../support/messaging';
import { parseExposition, sampleValue, type PromSample } from '../support/prometheus';
import { eventually, expectError, startTestApp, type TestApp } from '../support/test-app';

const TOKEN = 'metrics-token-for-the-suite';

/** docs/operations.md, Metrics: GET /metrics in Prometheus's text format, behind METRICS_TOKEN. */
describe('GET /metrics', () => {
  let t: TestApp;
  let m: Merchant;
  let receiver: Server;
  let receiverUrl: string;

  beforeAll(async () => {
    receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end('ok')));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    t = await startTestApp({
      env: { METRICS_TOKEN: TOKEN, TEST_DLR_DELAY_MS: '0', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' },
      override: (b) =>
        b.overrideProvider(WEBHOOK_OPTIONS).useValue({
          retry: { baseMs: 50, maxMs: 1000, windowMs: 60_000 },
          timeoutMs: 3000,
          pollMs: 25,
          perEndpointConcurrency: 4,
          perWalletConcurrency: 16,
          totalConcurrency: 16,
          maxEndpointsPerWallet: 4,
        } satisfies WebhookOptions),
    });
    m = await createMerchant(t);
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  const scrape = async (): Promise<PromSample[]> => {
    const response = await t.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseExposition(response.text);
  };

  it('answers 401 in the API error shape without the token, or with a wrong one', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: TOKEN },
    ];
    for (const headers of attempts) {
      const response = await t.request('GET', '/metrics', { headers });
      expectError(response, 401, 'invalid_metrics_token');
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(response.text).not.toContain('sms_');
    }
    // Not an API key either: an API key does not open it.
    expectError(await t.request('GET', '/metrics', { key: m.testKey }), 401, 'invalid_metrics_token');
  });

  it('shows sends, refusals, latency, outcomes, checkouts, webhooks and the gauges moving', async () => {
    const before = await scrape();
    const endpoint = await t.request('POST', '/v1/webhook_endpoints', {
      key: m.testKey,
      body: { url: receiverUrl, events: ['message.delivered'] },
    });
    expect(endpoint.status).toBe(200);

    const delivered = await send(t, m.testKey, { to: SANDBOX.delivered });
    const rejected = await send(t, m.testKey, { to: SANDBOX.rejected });
    const replayKey = { 'idempotency-key': 'metrics-replay' };
    const first = await send(t, m.testKey, { to: SANDBOX.delivered, message: 'once' }, replayKey);
    const replay = await send(t, m.testKey, { to: SANDBOX.delivered, message: 'once' }, replayKey);
    expect([delivered.status, rejected.status, first.status, replay.status]).toEqual([200, 200, 200, 200]);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expectError(await send(t, m.testKey, { to: '+2332' }), 400, 'invalid_phone_number');
    // LIVE, with no LIVE carrier connection configured here.
    expectError(await send(t, m.liveKey, { to: '+233241234567' }), 400, 'carrier_unavailable');
    expectError(await send(t, `sms_test_${'z'.repeat(40)}`), 401, 'invalid_api_key');
    const sandbox = await t.request('POST', '/v1/sandbox/messages', {
      body: sendBody({ to: SANDBOX.delivered }),
    });
    expect(sandbox.status).toBe(200);

    expect((await finalState(t, m.testKey, delivered.body.id)).status).toBe('DELIVERED');
    expect((await finalState(t, m.testKey, rejected.body.id)).status).toBe('FAILED');
    const checkout = await startCheckout(t, m.testKey);
    expect((await submitForm(t, `/checkout/${checkout.id}/decline`)).status).toBeLessThan(400);

    const carrier = delivered.body.carrier as string;
    const moved = (samples: PromSample[], name: string, labels: Record<string, string> = {}) =>
      (sampleValue(samples, name, labels) ?? 0) - (sampleValue(before, name, labels) ?? 0);
    const after = await eventually(
      async () => {
        const samples = await scrape();
        const webhookDone = moved(samples, 'sms_webhook_deliveries_total', { result: 'succeeded' }) >= 2;
        return webhookDone ? samples : undefined;
      },
      20_000,
      'the webhook deliveries to be recorded',
    );

    const TEST = { environment: 'TEST' };
    expect(moved(after, 'sms_sends_accepted_total', { endpoint: 'messages', ...TEST })).toBe(3);
    expect(moved(after, 'sms_sends_accepted_total', { endpoint: 'sandbox', ...TEST })).toBe(1);
    expect(moved(after, 'sms_sends_replayed_total', { endpoint: 'messages', ...TEST })).toBe(1);
    expect(
      moved(after, 'sms_sends_refused_total', {
        endpoint: 'messages',
        ...TEST,
        code: 'invalid_phone_number',
      }),
    ).toBe(1);
    expect(
      moved(after, 'sms_sends_refused_total', { endpoint: 'messages', ...TEST, code: 'invalid_api_key' }),
    ).toBe(1);
    expect(
      moved(after, 'sms_sends_refused_total', {
        endpoint: 'messages',
        environment: 'LIVE',
        code: 'carrier_unavailable',
      }),
    ).toBe(1);
    expect(
      moved(after, 'sms_send_duration_seconds_count', { endpoint: 'messages', result: 'accepted' }),
    ).toBe(3);
    expect(moved(after, 'sms_send_duration_seconds_count', { endpoint: 'messages', result: 'refused' })).toBe(
      3,
    );
    expect(
      sampleValue(after, 'sms_send_duration_seconds_bucket', {
        endpoint: 'messages',
        result: 'accepted',
        le: '+Inf',
      }),
    ).toBe(
      sampleValue(after, 'sms_send_duration_seconds_count', { endpoint: 'messages', result: 'accepted' }),
    );

    // Outcomes: DELIVERED by the receipt path, FAILED by the dispatcher (the carrier rejected it).
    expect(
      moved(after, 'sms_message_outcomes_total', { carrier, ...TEST, status: 'DELIVERED' }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      moved(after, 'sms_message_outcomes_total', {
        carrier: rejected.body.carrier,
        ...TEST,
        status: 'FAILED',
      }),
    ).toBe(1);
    expect(
      moved(after, 'sms_message_accept_to_outcome_seconds_count', { carrier, ...TEST, status: 'DELIVERED' }),
    ).toBeGreaterThanOrEqual(2);
    expect(moved(after, 'sms_checkout_outcomes_total', { ...TEST, status: 'failed' })).toBe(1);

    // Gauges read at scrape time.
    expect(sampleValue(after, 'sms_dispatch_backlog')).toEqual(expect.any(Number));
    expect(sampleValue(after, 'sms_dispatcher_in_memory', { state: 'waiting' })).toEqual(expect.any(Number));
    expect(sampleValue(after, 'sms_wallet_command_queue_depth')).toEqual(expect.any(Number));
    expect(sampleValue(after, 'sms_projection_lag', { projection: 'messages' })).toEqual(expect.any(Number));
    expect(sampleValue(after, 'sms_projection_lag', { projection: 'message-settlement' })).toEqual(
      expect.any(Number),
    );
    expect(after.some((s) => s.name === 'process_cpu_user_seconds_total')).toBe(true);
  }, 60_000);

  it("counts the console's and the try-out's sends too: accepted, a form sent twice, refused", async () => {
    const before = await scrape();
    const browser = new ConsoleBrowser(t.baseUrl);
    await browser.signIn(m.email, m.password);
    const form = {
      ...(await browser.formTokens('/console/send')),
      to: SANDBOX.delivered,
      sender_id: 'MyShop',
      message: 'From the console',
      type: 'transactional',
    };
    const sent = await browser.go('POST', '/console/send', form);
    const again = await browser.go('POST', '/console/send', form); // a double click: same form token
    expect([sent.status, again.status, again.location]).toEqual([303, 303, sent.location]);
    const refused = await browser.go('POST', '/console/send', {
      ...(await browser.formTokens('/console/send')),
      to: '+2332',
      sender_id: 'MyShop',
      message: 'Too short a number',
      type: 'transactional',
    });
    expect(refused.status).toBe(400);
    const batch = await browser.upload(
      '/console/send-many/preview',
      { _csrf: await browser.csrf('/console/send-many'), sender_id: 'MyShop', type: 'transactional' },
      { field: 'file', name: 'customers.csv', content: `to,message\n${SANDBOX.delivered},Hello\n` },
    );
    const batchSent = await browser.go('POST', '/console/send-many', previewSendForm(batch.html));
    expect(batchSent.location).toMatch(/^\/console\/batches\/bat_/);
    const visitor = new ConsoleBrowser(t.baseUrl);
    const tried = await visitor.go('POST', '/try', {
      _csrf: await visitor.csrf('/try'),
      to: SANDBOX.delivered,
      sender_id: 'TryOut',
      message: 'Hello from the try-out',
    });
    expect(tried.location).toMatch(/^\/try\/messages\/msg_/);

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) =>
      (sampleValue(after, name, labels) ?? 0) - (sampleValue(before, name, labels) ?? 0);
    const TEST = { environment: 'TEST' };
    expect({
      console: moved('sms_sends_accepted_total', { endpoint: 'console', ...TEST }),
      consoleReplayed: moved('sms_sends_replayed_total', { endpoint: 'console', ...TEST }),
      consoleRefused: moved('sms_sends_refused_total', {
        endpoint: 'console',
        ...TEST,
        code: 'invalid_phone_number',
      }),
      consoleBatch: moved('sms_sends_accepted_total', { endpoint: 'console_batch', ...TEST }),
      tryOut: moved('sms_sends_accepted_total', { endpoint: 'try', ...TEST }),
      consoleTimed: moved('sms_send_duration_seconds_count', { endpoint: 'console', result: 'accepted' }),
      // The API's series did not move: each send is counted once, where it came in.
      api: moved('sms_sends_accepted_total', { endpoint: 'messages', ...TEST }),
    }).toEqual({
      console: 1,
      consoleReplayed: 1,
      consoleRefused: 1,
      consoleBatch: 1,
      tryOut: 1,
      consoleTimed: 1,
      api: 0,
    });
  }, 60_000);

  it('is open when METRICS_TOKEN is unset', async () => {
    const open = await startTestApp({ env: { METRICS_TOKEN: '' } });
    try {
      const response = await open.request('GET', '/metrics');
      expect(response.status).toBe(200);
      expect(parseExposition(response.text).some((s) => s.name === 'sms_dispatch_backlog')).toBe(true);
    } finally {
      await open.close();
    }
  }, 60_000);
});
