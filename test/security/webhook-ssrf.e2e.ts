import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_STORE, EventStore } from '../../src/shared/event-store/event-store.port';
import { webhookDeliveriesStream } from '../../src/webhooks/domain/webhook.events';
import { HOST_RESOLVER, HostResolver, ResolvedAddress } from '../../src/webhooks/ports/webhook-sender.port';
import { WEBHOOK_OPTIONS, WebhookOptions } from '../../src/webhooks/webhooks.options';
import { createMerchant } from '../support/merchant';
import { SANDBOX, send } from '../support/messaging';
import { eventually, expectError, startTestApp, TestApp } from '../support/test-app';

/**
 * SSRF through webhook endpoints (docs/security.md, "Attacks tried"): a free account's TEST key
 * aims its endpoint at our own network. With WEBHOOK_ALLOW_PRIVATE_ADDRESSES off (the default),
 * every endpoint, TEST or LIVE, is refused at creation when its host is not public, and a name
 * that resolves to a public address at creation and to 127.0.0.1 later (DNS rebinding) makes
 * no connection at delivery time.
 */

const fastOptions: WebhookOptions = {
  retry: { baseMs: 50, maxMs: 200, windowMs: 24 * 60 * 60 * 1000 },
  timeoutMs: 3000,
  pollMs: 25,
  perEndpointConcurrency: 4,
  perWalletConcurrency: 16,
  totalConcurrency: 64,
  maxEndpointsPerWallet: 16,
};

/**
 * hooks.rebind.example resolves to `first` on its first lookup (the creation check), to
 * 127.0.0.1 on every later one; other names do not resolve.
 */
class RebindingResolver implements HostResolver {
  readonly asked: string[] = [];
  private answered = 0;

  constructor(private readonly first = '93.184.215.14') {}

  async resolve(host: string): Promise<ResolvedAddress[]> {
    this.asked.push(host);
    if (host !== 'hooks.rebind.example') throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    const address = this.answered++ === 0 ? this.first : '127.0.0.1';
    return [{ address, family: 4 }];
  }
}

/** A listener on 127.0.0.1 that counts every TCP connection made to it. */
async function countingListener(): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end('ok')));
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => connections };
}

async function closeListener(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

async function startApp(allowPrivate: boolean, resolver: HostResolver): Promise<TestApp> {
  return startTestApp({
    env: { TEST_DLR_DELAY_MS: '30', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: String(allowPrivate) },
    override: (b) =>
      b
        .overrideProvider(WEBHOOK_OPTIONS)
        .useValue(fastOptions)
        .overrideProvider(HOST_RESOLVER)
        .useValue(resolver),
  });
}

/** A TEST endpoint at hooks.rebind.example (on the listener's port), then a message to report. */
async function endpointAtRebindingName(t: TestApp, port: number) {
  const m = await createMerchant(t);
  const created = await t.request('POST', '/v1/webhook_endpoints', {
    key: m.testKey,
    body: { url: `http://hooks.rebind.example:${port}/hooks`, events: ['message.delivered'] },
  });
  if (created.status === 200) expect((await send(t, m.testKey, { to: SANDBOX.delivered })).status).toBe(200);
  return created;
}

/** The outcomes the worker recorded for an endpoint's deliveries. */
async function outcomes(t: TestApp, endpointId: string) {
  const events = await t.app.get<EventStore>(EVENT_STORE).readStream(webhookDeliveriesStream(endpointId));
  return events.map((e) => ({ type: e.type, error: (e.data as { error?: string }).error ?? null }));
}

describe('Webhook SSRF', () => {
  it('refuses TEST and LIVE endpoints at loopback, private, link-local, mapped and internal hosts', async () => {
    const listener = await countingListener();
    const t = await startApp(false, new RebindingResolver());
    try {
      const m = await createMerchant(t);
      const unsafe = [
        `http://127.0.0.1:${listener.port}/hooks`,
        `http://localhost:${listener.port}/hooks`,
        `http://[::1]:${listener.port}/hooks`,
        `http://[::ffff:127.0.0.1]:${listener.port}/hooks`,
        `http://[::ffff:7f00:1]:${listener.port}/hooks`,
        'http://0.0.0.0:2113/admin/shutdown',
        'http://10.0.0.5/hooks',
        'http://172.20.0.3:2113/admin/shutdown',
        'http://192.168.1.10/hooks',
        'http://100.64.0.1/hooks',
        'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
        'http://[fd00::1]/hooks',
        'http://[fe80::1]/hooks',
        'http://eventstore:2113/admin/shutdown', // a compose service name
      ];
      for (const key of [m.testKey, m.liveKey]) {
        for (const url of unsafe) {
          const https = key === m.liveKey ? url.replace(/^http:/, 'https:') : url;
          const r = await t.request('POST', '/v1/webhook_endpoints', {
            key,
            body: { url: https, events: ['message.delivered'] },
          });
          expect({ url: https, status: r.status }).toEqual({ url: https, status: 400 });
          expect(expectError(r, 400, 'invalid_url').param).toBe('url');
        }
        expect((await t.request('GET', '/v1/webhook_endpoints', { key })).body.data).toEqual([]);
      }
      expect(listener.connections()).toBe(0);
    } finally {
      await t.close();
      await closeListener(listener.server);
    }
  });

  it('a name that later resolves to 127.0.0.1 gets its deliveries refused: no connection is made', async () => {
    const listener = await countingListener();
    const resolver = new RebindingResolver();
    const t = await startApp(false, resolver);
    try {
      const created = await endpointAtRebindingName(t, listener.port);
      expect(created.status).toBe(200); // public when created
      // Two refused attempts: the delivery is retried, and each retry is refused again.
      const refused = await eventually(
        async () => {
          const failed = (await outcomes(t, created.body.id)).filter(
            (o) => o.type === 'WebhookDeliveryFailed',
          );
          return failed.length >= 2 ? failed : undefined;
        },
        30_000,
        'two refused delivery attempts',
      );
      expect(refused.every((o) => /non-public address/.test(o.error ?? ''))).toBe(true);
      expect(resolver.asked.filter((h) => h === 'hooks.rebind.example').length).toBeGreaterThanOrEqual(3);
      expect(listener.connections()).toBe(0);
    } finally {
      await t.close();
      await closeListener(listener.server);
    }
  });

  it('with WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true the same name reaches the listener (the seam is real)', async () => {
    const listener = await countingListener();
    const t = await startApp(true, new RebindingResolver('127.0.0.1'));
    try {
      const created = await endpointAtRebindingName(t, listener.port);
      expect(created.status).toBe(200);
      await eventually(
        async () =>
          (await outcomes(t, created.body.id)).some((o) => o.type === 'WebhookDeliverySucceeded')
            ? true
            : undefined,
        30_000,
        'the delivery acknowledged',
      );
      expect(listener.connections()).toBeGreaterThan(0);
    } finally {
      await t.close();
      await closeListener(listener.server);
    }
  });
});
