import { routesAdd, routesList } from '../../src/cli/commands/route.commands';
import { createMerchant } from '../support/merchant';
import { finalState, SANDBOX, send, sendBody, smsLeft } from '../support/messaging';
import { eventually, expectError, startTestApp, TestApp } from '../support/test-app';

describe('Messaging: operator routes and the sandbox try-out', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TEST_DLR_DELAY_MS: '20', RATE_LIMIT_PER_ADDRESS_BURST: '200' } });
  });
  afterAll(() => t.close());

  it('refuses another country until routes:add, then TEST sends there work (no restart)', async () => {
    const m = await createMerchant(t);
    const nigeria = '+2348031234567';
    expectError(await send(t, m.testKey, { to: nigeria }), 400, 'unsupported_destination');
    expectError(
      await t.request('POST', '/v1/messages/quote', { key: m.testKey, body: sendBody({ to: nigeria }) }),
      400,
      'unsupported_destination',
    );

    const added = await routesAdd.run(t.app, { prefix: '+234', carrier: 'glo' });
    expect(added.output).toEqual({ added: { prefix: '+234', carrier: 'GLO' } });
    const listed = await routesList.run(t.app, {});
    expect((listed.output as { routes: unknown[] }).routes).toContainEqual({
      prefix: '+234',
      carrier: 'GLO',
    });

    const response = await send(t, m.testKey, { to: nigeria });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ carrier: 'GLO', status: 'QUEUED' });
    expect((await finalState(t, m.testKey, response.body.id)).status).toBe('DELIVERED');
    // LIVE needs a configured connection for that carrier.
    expectError(await send(t, m.liveKey, { to: nigeria }), 400, 'carrier_unavailable');
  });

  it('refuses an invalid route', async () => {
    await expect(routesAdd.run(t.app, { prefix: '234', carrier: 'X' })).rejects.toMatchObject({
      code: 'invalid_route_prefix',
    });
  });

  it('sends to sandbox numbers without a key and reads the outcome', async () => {
    const outcomes: [string, string][] = [
      [SANDBOX.delivered, 'DELIVERED'],
      [SANDBOX.failed, 'FAILED'],
      [SANDBOX.expired, 'EXPIRED'],
      [SANDBOX.rejected, 'FAILED'],
    ];
    for (const [to, status] of outcomes) {
      const response = await t.request('POST', '/v1/sandbox/messages', { body: sendBody({ to }) });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        object: 'message',
        status: 'QUEUED',
        environment: 'TEST',
        to,
        send_at: null,
        dlr: null,
      });
      const final = await eventually(async () => {
        const r = await t.request('GET', `/v1/sandbox/messages/${response.body.id}`);
        return ['DELIVERED', 'FAILED', 'EXPIRED'].includes(r.body.status) ? r.body : undefined;
      });
      expect(final.status).toBe(status);
    }
  });

  it('refuses non-sandbox numbers and keeps try-out messages out of every wallet', async () => {
    expectError(
      await t.request('POST', '/v1/sandbox/messages', { body: sendBody() }),
      400,
      'sandbox_number_required',
    );
    expectError(
      await t.request('POST', '/v1/sandbox/messages', {
        body: sendBody({ to: SANDBOX.delivered, type: 'x' }),
      }),
      400,
      'invalid_type',
    );
    const m = await createMerchant(t);
    const tryout = await t.request('POST', '/v1/sandbox/messages', {
      body: sendBody({ to: SANDBOX.delivered }),
    });
    expectError(
      await t.request('GET', `/v1/messages/${tryout.body.id}`, { key: m.testKey }),
      404,
      'resource_missing',
    );
    expect((await t.request('GET', '/v1/messages', { key: m.testKey })).body.data).toHaveLength(0);
    expect(await smsLeft(t, m.testKey)).toBe(100);
    // And a wallet's message is not readable through the try-out.
    const mine = await send(t, m.testKey, { to: SANDBOX.delivered });
    expectError(await t.request('GET', `/v1/sandbox/messages/${mine.body.id}`), 404, 'resource_missing');
  });

  it('rate-limits the try-out per client address with 429 and Retry-After', async () => {
    const limited = await startTestApp({
      env: { RATE_LIMIT_PER_ADDRESS_BURST: '2', RATE_LIMIT_PER_ADDRESS_RPS: '1' },
    });
    try {
      const responses = [];
      for (let i = 0; i < 4; i++)
        responses.push(
          await limited.request('POST', '/v1/sandbox/messages', {
            body: sendBody({ to: SANDBOX.delivered }),
          }),
        );
      const refused = responses.find((r) => r.status === 429);
      expect(refused).toBeDefined();
      expectError(refused!, 429, 'rate_limited');
      expect(refused!.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });
});
