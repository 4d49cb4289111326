import { createHmac } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { killAllStarted, startServer, type ServerProcess } from '../support/server-process';
import { eventually } from '../support/test-app';

const PAYSTACK_SECRET = 'sk_test_structured_logs_suite';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LogLine = Record<string, any>;

/**
 * docs/operations.md, Logs: the real server (src/main.ts) writes one JSON object per line, and
 * every line a request causes carries the request id it answered with as X-Request-Id, also
 * lines written deep inside a handler, after its body was parsed and after awaits.
 */
describe('structured logs: JSON lines with the request id', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServer({
      env: {
        LOG_LEVEL: 'info',
        PAYSTACK_SECRET_KEY: PAYSTACK_SECRET,
        PAYSTACK_BASE_URL: 'http://127.0.0.1:9',
      },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.kill('SIGTERM');
    await killAllStarted();
    if (server) rmSync(server.dataDir, { recursive: true, force: true });
  });

  /** The server's output (stdout and stderr), without the harness's own "==== starting" lines. */
  const outputLines = () =>
    readFileSync(server.logFile, 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('==== '));

  it('writes every line as JSON, and the lines a request causes carry its X-Request-Id', async () => {
    // A signed Paystack webhook for a reference nobody knows: the controller logs a warning
    // after the body was parsed and the checkout looked up.
    const body = JSON.stringify({
      event: 'charge.success',
      data: { reference: 'chk_nobodyknowsthisone', amount: 5000, currency: 'GHS' },
    });
    const webhook = await server.request('POST', '/v1/billing/webhooks/paystack', {
      body,
      headers: { 'x-paystack-signature': createHmac('sha512', PAYSTACK_SECRET).update(body).digest('hex') },
    });
    expect(webhook.status).toBe(200);
    const webhookId = webhook.headers.get('x-request-id');

    // Two refused sends: a key nobody minted, and a body that is not JSON.
    const unknownKey = await server.request('POST', '/v1/messages', {
      key: `sms_test_${'x'.repeat(40)}`,
      body: { to: '+233200000001', sender_id: 'Shop', message: 'hi', type: 'transactional' },
    });
    expect(unknownKey.status).toBe(401);
    const malformed = await server.request('POST', '/v1/messages', {
      key: `sms_test_${'y'.repeat(40)}`,
      body: '{"to":',
    });
    expect(malformed.status).toBe(400);
    const ids = [webhookId, unknownKey.headers.get('x-request-id'), malformed.headers.get('x-request-id')];
    expect(ids).toEqual([
      expect.stringMatching(/^req_/),
      expect.stringMatching(/^req_/),
      expect.stringMatching(/^req_/),
    ]);

    const lines = await eventually(
      async () => {
        const parsed = outputLines().map((line) => {
          try {
            return JSON.parse(line) as LogLine;
          } catch {
            throw new Error(`not a JSON line: ${line}`);
          }
        });
        const accessed = ids.every((id) => parsed.some((l) => l.context === 'access' && l.req_id === id));
        return accessed ? parsed : undefined;
      },
      20_000,
      'the access lines of the three requests',
    );

    for (const line of lines) {
      expect(line).toEqual(
        expect.objectContaining({
          level: expect.any(String),
          time: expect.any(String),
          msg: expect.any(String),
        }),
      );
    }
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'info', context: 'main', msg: expect.stringMatching(/listening on/) }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        context: 'paystack-webhook',
        req_id: webhookId,
        msg: expect.stringContaining('unknown reference'),
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'info',
        context: 'access',
        req_id: webhookId,
        method: 'POST',
        path: '/v1/billing/webhooks/paystack',
        status: 200,
        duration_ms: expect.any(Number),
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ context: 'access', req_id: ids[1], route: '/v1/messages', status: 401 }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ context: 'access', req_id: ids[2], route: '/v1/messages', status: 400 }),
    );
    // Each line names its own request only.
    const requestLines = lines.filter((l) => l.req_id === webhookId);
    expect(requestLines.map((l) => l.context).sort()).toEqual(['access', 'paystack-webhook']);
    expect(outputLines().join('\n')).not.toContain(PAYSTACK_SECRET);
  }, 60_000);
});
