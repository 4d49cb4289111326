import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProjectionsService } from '../../src/shared/projections/projections.service';
import { WEBHOOK_OPTIONS, WebhookOptions } from '../../src/webhooks/webhooks.options';
import { postSignIn, visitSignIn } from '../support/console-form';
import { startCheckout, submitForm } from '../support/hosted-checkout';
import { createMerchant, Merchant } from '../support/merchant';
import { finalState, SANDBOX, send, smsLeft, sendBody } from '../support/messaging';
import { eventually, expectError, startTestApp, TestApp, TestAppOptions } from '../support/test-app';
import { verifyWebhook } from '../support/verify-webhook';

const ALL_EVENTS = [
  'message.sent',
  'message.delivered',
  'message.failed',
  'message.expired',
  'checkout.succeeded',
];

const fastOptions = (overrides: Partial<WebhookOptions> = {}): WebhookOptions => ({
  retry: { baseMs: 50, maxMs: 1000, windowMs: 24 * 60 * 60 * 1000 },
  timeoutMs: 3000,
  pollMs: 25,
  perEndpointConcurrency: 4,
  perWalletConcurrency: 16,
  totalConcurrency: 64,
  maxEndpointsPerWallet: 16,
  ...overrides,
});

function appOptions(
  overrides: Partial<WebhookOptions> = {},
  extra: Partial<TestAppOptions> = {},
): TestAppOptions {
  return {
    // The receivers listen on 127.0.0.1; test/security/webhook-ssrf.e2e.ts runs with this off.
    env: { TEST_DLR_DELAY_MS: '30', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' },
    override: (b) => b.overrideProvider(WEBHOOK_OPTIONS).useValue(fastOptions(overrides)),
    ...extra,
  };
}

interface Received {
  readonly raw: string;
  readonly signature: string | undefined;
  readonly event: { id: string; type: string; sequence: number; data: { id: string; status: string } };
  /** What the receiver answered: a status, or 'hang' (no answer). */
  readonly answer: number | 'hang';
  readonly at: number;
}

type Behaviour = (event: Received['event'], attemptOfThisEvent: number) => number | 'hang';

/** A webhook receiver on 127.0.0.1 that records every request and answers as told. */
class Receiver {
  readonly received: Received[] = [];
  private readonly server: Server;
  private readonly attempts = new Map<string, number>();
  behaviour: Behaviour = () => 200;

  private constructor() {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const event = JSON.parse(raw);
        const attempt = (this.attempts.get(event.id) ?? 0) + 1;
        this.attempts.set(event.id, attempt);
        const answer = this.behaviour(event, attempt);
        this.received.push({
          raw,
          signature: req.headers['sms-signature'] as string | undefined,
          event,
          answer,
          at: Date.now(),
        });
        if (answer === 'hang') return; // never answers; the sender's timeout or shutdown ends it
        res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
      });
    });
  }

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  acknowledged(): Received[] {
    return this.received.filter((r) => typeof r.answer === 'number' && r.answer >= 200 && r.answer < 300);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

async function createEndpoint(t: TestApp, key: string, url: string, events = ALL_EVENTS) {
  const response = await t.request('POST', '/v1/webhook_endpoints', { key, body: { url, events } });
  expect(response.status).toBe(200);
  return response.body as { id: string; secret: string; url: string; events: string[]; status: string };
}

async function allEvents(t: TestApp, key: string) {
  const out: Array<{ id: string; type: string; sequence: number; data: { id: string } }> = [];
  let after: string | null = null;
  for (;;) {
    const query: string = after ? `?limit=2&after=${after}` : '?limit=2';
    const response = await t.request('GET', `/v1/events${query}`, { key });
    expect(response.status).toBe(200);
    out.push(...response.body.data);
    if (!response.body.has_more) return out;
    after = out[out.length - 1].id;
  }
}

/** Every request for (subject, sequence n) came after all sequences < n of that subject were acknowledged. */
function expectPerMessageOrder(received: Received[]) {
  const acked = new Map<string, number>();
  for (const r of received) {
    const subject = r.event.data.id;
    const highest = acked.get(subject) ?? 0;
    expect(r.event.sequence).toBeGreaterThan(highest);
    if (typeof r.answer === 'number' && r.answer < 300) acked.set(subject, r.event.sequence);
  }
}

describe('Webhooks', () => {
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await Receiver.start();
  });
  afterEach(async () => {
    await receiver.close();
  });

  it('delivers signed events at least once, in per-message order, through 500s, matching GET /v1/events', async () => {
    const t = await startTestApp(appOptions());
    try {
      const m = await createMerchant(t);
      // Every event is refused three times before it is taken.
      receiver.behaviour = (_event, attempt) => (attempt <= 3 ? 500 : 200);
      const endpoint = await createEndpoint(t, m.testKey, receiver.url);
      expect(endpoint).toMatchObject({
        id: expect.stringMatching(/^we_/),
        object: 'webhook_endpoint',
        url: receiver.url,
        events: ALL_EVENTS,
        status: 'enabled',
        created_at: expect.any(String),
        secret: expect.stringMatching(/^whsec_/),
      });

      const ids: string[] = [];
      for (const to of [SANDBOX.delivered, SANDBOX.failed, SANDBOX.rejected]) {
        const r = await send(t, m.testKey, { to });
        expect(r.status).toBe(200);
        ids.push(r.body.id);
      }
      const finals = await Promise.all(ids.map((id) => finalState(t, m.testKey, id)));
      expect(finals.map((f) => f.status)).toEqual(['DELIVERED', 'FAILED', 'FAILED']);
      // delivered: SENT(2), DELIVERED(3); failed: SENT(2), FAILED(3); rejected: FAILED(2).
      const expected = 5;
      await eventually(
        async () =>
          new Set(receiver.acknowledged().map((r) => r.event.id)).size === expected ? true : undefined,
        45_000,
        'every event acknowledged',
      );

      const acked = receiver.acknowledged();
      expect(acked).toHaveLength(expected); // each once
      expect(receiver.received.filter((r) => r.answer === 500)).toHaveLength(expected * 3);
      expectPerMessageOrder(receiver.received);
      const bySubject = (subject: string) =>
        acked
          .filter((r) => r.event.data.id === subject)
          .map((r) => [r.event.type, r.event.sequence, r.event.data.status]);
      expect(bySubject(ids[0])).toEqual([
        ['message.sent', 2, 'SENT'],
        ['message.delivered', 3, 'DELIVERED'],
      ]);
      expect(bySubject(ids[1])).toEqual([
        ['message.sent', 2, 'SENT'],
        ['message.failed', 3, 'FAILED'],
      ]);
      expect(bySubject(ids[2])).toEqual([['message.failed', 2, 'FAILED']]);
      // The data is the message as the API shows it in that state.
      const delivered = acked.find((r) => r.event.type === 'message.delivered')!;
      expect(delivered.event.data).toEqual(finals[0]);

      // Signatures: the documented verifier accepts real deliveries and refuses tampering.
      for (const r of receiver.received)
        expect(verifyWebhook(r.raw, r.signature, endpoint.secret)).toBe(true);
      const one = acked[0];
      expect(one.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(
        verifyWebhook(
          one.raw.replace('"object":"event"', '"object":"evenT"'),
          one.signature,
          endpoint.secret,
        ),
      ).toBe(false);
      expect(verifyWebhook(one.raw, one.signature, 'whsec_wrong')).toBe(false);
      expect(
        verifyWebhook(one.raw, one.signature, endpoint.secret, 300, Math.floor(Date.now() / 1000) + 301),
      ).toBe(false);
      expect(verifyWebhook(one.raw, undefined, endpoint.secret)).toBe(false);

      // Replay: the same events, same ids, oldest first (so per message in sequence order).
      const listed = await allEvents(t, m.testKey);
      expect(listed.map((e) => e.id).sort()).toEqual(acked.map((r) => r.event.id).sort());
      for (const r of acked) expect(listed.find((e) => e.id === r.event.id)).toEqual(JSON.parse(r.raw));
      for (const id of ids) {
        const seqs = listed.filter((e) => e.data.id === id).map((e) => e.sequence);
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      }
      expectError(
        await t.request('GET', '/v1/events?after=evt_unknownUnknownUnknown1', { key: m.testKey }),
        404,
      );
      expectError(await t.request('GET', '/v1/events?after=nope', { key: m.testKey }), 400);
      // Another wallet cannot page from this wallet's events, nor sees them.
      const other = await createMerchant(t);
      expectError(await t.request('GET', `/v1/events?after=${listed[0].id}`, { key: other.testKey }), 404);
      expect((await t.request('GET', '/v1/events', { key: other.testKey })).body.data).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('sends checkout.succeeded with the checkout object', async () => {
    const t = await startTestApp(appOptions());
    try {
      const m = await createMerchant(t);
      const endpoint = await createEndpoint(t, m.testKey, receiver.url, ['checkout.succeeded']);
      await send(t, m.testKey, { to: SANDBOX.delivered }); // not subscribed: never sent to this endpoint
      const checkout = await startCheckout(t, m.testKey);
      await submitForm(t, `/checkout/${checkout.id}/pay`);
      const got = await eventually(async () => receiver.acknowledged()[0], 30_000, 'checkout.succeeded');
      expect(got.event).toMatchObject({
        type: 'checkout.succeeded',
        sequence: 2,
        data: { id: checkout.id, object: 'checkout', status: 'succeeded' },
      });
      expect(verifyWebhook(got.raw, got.signature, endpoint.secret)).toBe(true);
      await new Promise((r) => setTimeout(r, 500));
      expect(receiver.received.every((r) => r.event.type === 'checkout.succeeded')).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('loses nothing across a restart with deliveries pending and in flight', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sms-wallet-webhooks-'));
    try {
      const first = await startTestApp(appOptions({}, { dataDir, keepData: true }));
      let m: Merchant;
      const ids: string[] = [];
      try {
        m = await createMerchant(first);
        const key = m.testKey;
        receiver.behaviour = () => 'hang'; // the first deliveries stay in flight until the shutdown
        await createEndpoint(first, m.testKey, receiver.url);
        for (const to of [SANDBOX.delivered, '+233241234567'])
          ids.push((await send(first, m.testKey, { to })).body.id);
        await Promise.all(ids.map((id) => finalState(first, key, id)));
        await eventually(
          async () => ((await allEvents(first, key)).length === 4 ? true : undefined),
          30_000,
          'four events recorded',
        );
        await eventually(
          async () => (receiver.received.length >= 1 ? true : undefined),
          30_000,
          'a delivery in flight',
        );
      } finally {
        await first.close();
      }
      expect(receiver.acknowledged()).toHaveLength(0);
      receiver.behaviour = () => 200;
      const second = await startTestApp(appOptions({}, { dataDir, keepData: true }));
      try {
        await eventually(
          async () => (new Set(receiver.acknowledged().map((r) => r.event.id)).size === 4 ? true : undefined),
          45_000,
          'all four after restart',
        );
        const listed = await allEvents(second, m.testKey);
        expect(
          receiver
            .acknowledged()
            .map((r) => r.event.id)
            .sort(),
        ).toEqual(listed.map((e) => e.id).sort());
        expect(receiver.acknowledged()).toHaveLength(4);
        expectPerMessageOrder(receiver.received.filter((r) => r.answer !== 'hang'));
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a slow receiver does not hold up another endpoint', async () => {
    const t = await startTestApp(appOptions({ timeoutMs: 5000 }));
    const fast = await Receiver.start();
    try {
      const m = await createMerchant(t);
      receiver.behaviour = () => 'hang';
      await createEndpoint(t, m.testKey, receiver.url);
      await createEndpoint(t, m.testKey, fast.url);
      const sent = await send(t, m.testKey, { to: SANDBOX.delivered });
      await eventually(
        async () => (fast.acknowledged().length === 2 ? true : undefined),
        30_000,
        'the fast endpoint served',
      );
      expect(fast.acknowledged().map((r) => r.event.data.id)).toEqual([sent.body.id, sent.body.id]);
    } finally {
      await t.close();
      await fast.close();
    }
  });

  it('disables an endpoint that fails for the whole retry window', async () => {
    const t = await startTestApp(appOptions({ retry: { baseMs: 50, maxMs: 200, windowMs: 800 } }));
    try {
      const m = await createMerchant(t);
      receiver.behaviour = () => 503;
      const endpoint = await createEndpoint(t, m.testKey, receiver.url);
      await send(t, m.testKey, { to: SANDBOX.delivered });
      await eventually(
        async () => {
          const list = await t.request('GET', '/v1/webhook_endpoints', { key: m.testKey });
          return list.body.data[0]?.status === 'disabled' ? true : undefined;
        },
        30_000,
        'endpoint disabled',
      );
      const count = receiver.received.length;
      await new Promise((r) => setTimeout(r, 600));
      expect(receiver.received.length).toBe(count); // nothing more goes to a disabled endpoint
      expect(
        (await t.request('GET', `/v1/webhook_endpoints/${endpoint.id}`, { key: m.testKey })).body.status,
      ).toBe('disabled');

      // The merchant sees it in the console too.
      const visitor = await visitSignIn(t.baseUrl);
      const signIn = await postSignIn(t.baseUrl, visitor, m.email, m.password);
      const session = signIn.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const page = await fetch(`${t.baseUrl}/console/webhooks`, { headers: { cookie: session } });
      const html = await page.text();
      expect(page.status).toBe(200);
      expect(html).toContain(receiver.url);
      expect(html).toContain('Disabled after 24 h of failures');
    } finally {
      await t.close();
    }
  });

  it('refuses unsafe LIVE URLs and bad input with 400', async () => {
    const t = await startTestApp(
      appOptions({}, { env: { TEST_DLR_DELAY_MS: '30', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'false' } }),
    );
    try {
      const m = await createMerchant(t);
      for (const url of [
        receiver.url, // http, and loopback
        'http://example.com/hooks',
        'https://127.0.0.1/hooks',
        'https://localhost/hooks',
        'https://[::1]/hooks',
        'https://[::ffff:127.0.0.1]/hooks',
        'https://10.0.0.5/hooks',
        'https://192.168.1.10/hooks',
        'https://169.254.169.254/latest',
      ]) {
        const r = await t.request('POST', '/v1/webhook_endpoints', {
          key: m.liveKey,
          body: { url, events: ['message.delivered'] },
        });
        expect({ url, status: r.status }).toEqual({ url, status: 400 });
        expect(expectError(r, 400, 'invalid_url').param).toBe('url');
      }
      expect((await t.request('GET', '/v1/webhook_endpoints', { key: m.liveKey })).body.data).toEqual([]);
      expectError(
        await t.request('POST', '/v1/webhook_endpoints', {
          key: m.testKey,
          body: { url: receiver.url, events: ['message.nope'] },
        }),
        400,
        'invalid_event_type',
      );
      expectError(
        await t.request('POST', '/v1/webhook_endpoints', {
          key: m.testKey,
          body: { url: receiver.url, events: [] },
        }),
        400,
      );
      expectError(
        await t.request('POST', '/v1/webhook_endpoints', {
          key: m.testKey,
          body: { events: ['message.sent'] },
        }),
        400,
        'parameter_missing',
      );
      expectError(
        await t.request('POST', '/v1/webhook_endpoints', {
          key: m.testKey,
          body: { url: 'ftp://x.example', events: ['message.sent'] },
        }),
        400,
        'invalid_url',
      );
      expectError(
        await t.request('POST', '/v1/webhook_endpoints', {
          body: { url: receiver.url, events: ['message.sent'] },
        }),
        401,
      );
    } finally {
      await t.close();
    }
  });

  it('lists without the secret, deletes, and answers 404 for another wallet', async () => {
    const t = await startTestApp(appOptions());
    try {
      const m = await createMerchant(t);
      const other = await createMerchant(t);
      const endpoint = await createEndpoint(t, m.testKey, receiver.url, ['message.delivered']);
      const list = await t.request('GET', '/v1/webhook_endpoints', { key: m.testKey });
      expect(list.body).toEqual({
        object: 'list',
        data: [
          {
            id: endpoint.id,
            object: 'webhook_endpoint',
            url: receiver.url,
            events: ['message.delivered'],
            status: 'enabled',
            created_at: expect.any(String),
          },
        ],
        has_more: false,
      });
      expect(list.text).not.toContain('whsec_');
      // Another wallet (another merchant, or the same merchant's LIVE wallet) cannot see or delete it.
      expectError(
        await t.request('DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { key: other.testKey }),
        404,
      );
      expectError(await t.request('DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { key: m.liveKey }), 404);
      expectError(
        await t.request('GET', `/v1/webhook_endpoints/${endpoint.id}`, { key: other.testKey }),
        404,
      );
      expectError(
        await t.request('DELETE', '/v1/webhook_endpoints/we_doesNotExist000000', { key: m.testKey }),
        404,
      );
      const deleted = await t.request('DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { key: m.testKey });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ id: endpoint.id, object: 'webhook_endpoint', deleted: true });
      expect((await t.request('GET', '/v1/webhook_endpoints', { key: m.testKey })).body.data).toEqual([]);
      expectError(await t.request('DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { key: m.testKey }), 404);
      // Nothing is delivered to a deleted endpoint, and a wallet without endpoints has no webhook
      // events recorded at all (GET /v1/events answers from what was recorded).
      const sent = await send(t, m.testKey, { to: SANDBOX.delivered });
      await finalState(t, m.testKey, sent.body.id);
      await t.app.get(ProjectionsService).catchUp();
      await new Promise((r) => setTimeout(r, 300));
      expect(await allEvents(t, m.testKey)).toEqual([]);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await t.close();
    }
  });

  it('a quote reserves and records nothing', async () => {
    const t = await startTestApp(appOptions());
    try {
      const m = await createMerchant(t);
      const before = await smsLeft(t, m.testKey);
      const history = (await t.request('GET', '/v1/wallet/events?limit=1000', { key: m.testKey })).body.data
        .length;
      const quote = await t.request('POST', '/v1/messages/quote', {
        key: m.testKey,
        body: sendBody({ message: 'x'.repeat(200) }),
      });
      expect(quote.status).toBe(200);
      expect(quote.body).toMatchObject({
        object: 'quote',
        segments: 2,
        credits: 2,
        sms_left: before,
        sendable: true,
      });
      expect(await smsLeft(t, m.testKey)).toBe(before);
      expect(
        (await t.request('GET', '/v1/wallet/events?limit=1000', { key: m.testKey })).body.data,
      ).toHaveLength(history);
      expect((await t.request('GET', '/v1/messages', { key: m.testKey })).body.data).toEqual([]);
      expect((await t.request('GET', '/v1/events', { key: m.testKey })).body.data).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('docs/webhooks.md quotes the verifier the tests run, verbatim', () => {
    const doc = readFileSync(join(__dirname, '../../docs/webhooks.md'), 'utf8');
    const code = readFileSync(join(__dirname, '../support/verify-webhook.ts'), 'utf8');
    expect(doc).toContain('# Webhooks');
    expect(doc).toContain('```ts\n' + code + '```');
  });
});
