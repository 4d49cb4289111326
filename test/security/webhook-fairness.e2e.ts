import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_OPTIONS, WebhookOptions } from '../../src/webhooks/webhooks.options';
import { createMerchant } from '../support/merchant';
import { SANDBOX, send } from '../support/messaging';
import { eventually, expectError, startTestApp, TestApp } from '../support/test-app';

/**
 * One tenant stalling everyone's webhooks (docs/security.md, "Attacks tried"): a free account
 * points its endpoints at receivers that never answer. The worker's slots are shared per wallet,
 * so another wallet's delivery still goes out while every one of those requests hangs; and the
 * endpoint limit holds against parallel creates.
 */

const options: WebhookOptions = {
  retry: { baseMs: 50, maxMs: 1000, windowMs: 24 * 60 * 60 * 1000 },
  // Far longer than the test: a hung attempt never ends on its own while the test runs.
  timeoutMs: 10 * 60 * 1000,
  pollMs: 25,
  perEndpointConcurrency: 4,
  perWalletConcurrency: 16,
  totalConcurrency: 64,
  maxEndpointsPerWallet: 16,
};

async function startApp(): Promise<TestApp> {
  return startTestApp({
    env: { TEST_DLR_DELAY_MS: '0', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' },
    override: (b) => b.overrideProvider(WEBHOOK_OPTIONS).useValue(options),
  });
}

/** A receiver on 127.0.0.1: answers 200, or never (`hang`); counts requests and open ones. */
async function receiver(hang: boolean) {
  const requests: Array<{ path: string; event: { data: { id: string } } }> = [];
  let open = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', event: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      if (hang) return;
      res.writeHead(200).end('ok');
    });
  });
  server.on('connection', (socket) => {
    open++;
    socket.on('close', () => open--);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    requests,
    open: () => open,
    url: (path: string) => `${base}${path}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const createEndpoint = (t: TestApp, key: string, url: string) =>
  t.request('POST', '/v1/webhook_endpoints', {
    key,
    body: { url, events: ['message.sent', 'message.delivered'] },
  });

describe('Webhook fairness between wallets', () => {
  it("one wallet's endpoints that never answer hold its own share only: another wallet's delivery goes out meanwhile", async () => {
    const t = await startApp();
    const dead = await receiver(true);
    const alive = await receiver(false);
    try {
      const attacker = await createMerchant(t);
      const victim = await createMerchant(t);
      for (let i = 0; i < 16; i++) {
        expect((await createEndpoint(t, attacker.testKey, dead.url(`/dead/${i}`))).status).toBe(200);
      }
      // 4 messages × 16 endpoints: enough work to fill every slot of the worker (16 × 4 = 64).
      for (let i = 0; i < 4; i++)
        expect((await send(t, attacker.testKey, { to: SANDBOX.delivered })).status).toBe(200);
      await eventually(
        async () => (dead.requests.length >= options.perWalletConcurrency ? true : undefined),
        30_000,
        "the attacker's endpoints holding requests",
      );

      expect((await createEndpoint(t, victim.testKey, alive.url('/alive'))).status).toBe(200);
      const sent = await send(t, victim.testKey, { to: SANDBOX.delivered });
      expect(sent.status).toBe(200);
      await eventually(
        async () => (alive.requests.some((r) => r.event.data.id === sent.body.id) ? true : undefined),
        30_000,
        "the victim's delivery",
      );
      // Causality: every attempt at the attacker's endpoints is still hanging (none ended, none
      // timed out), and they never held more than the wallet's share of the slots.
      expect(dead.open()).toBe(dead.requests.length);
      expect(dead.requests.length).toBe(options.perWalletConcurrency);
    } finally {
      await t.close();
      await dead.close();
      await alive.close();
    }
  });

  it('parallel creates never exceed the endpoint limit; a deleted endpoint frees its slot', async () => {
    const t = await startApp();
    const sink = await receiver(false);
    try {
      const m = await createMerchant(t);
      const attempts = await Promise.all(
        Array.from({ length: 24 }, (_, i) => createEndpoint(t, m.testKey, sink.url(`/hook/${i}`))),
      );
      const created = attempts.filter((r) => r.status === 200);
      const refused = attempts.filter((r) => r.status !== 200);
      expect(created.length).toBe(options.maxEndpointsPerWallet);
      for (const r of refused) expectError(r, 400, 'too_many_endpoints');
      const listed = await t.request('GET', '/v1/webhook_endpoints', { key: m.testKey });
      expect(listed.body.data).toHaveLength(options.maxEndpointsPerWallet);

      expectError(await createEndpoint(t, m.testKey, sink.url('/one-more')), 400, 'too_many_endpoints');
      const deleted = await t.request('DELETE', `/v1/webhook_endpoints/${created[0].body.id}`, {
        key: m.testKey,
      });
      expect(deleted.status).toBe(200);
      expect((await createEndpoint(t, m.testKey, sink.url('/one-more'))).status).toBe(200);
      expectError(await createEndpoint(t, m.testKey, sink.url('/two-more')), 400, 'too_many_endpoints');
    } finally {
      await t.close();
      await sink.close();
    }
  });
});
