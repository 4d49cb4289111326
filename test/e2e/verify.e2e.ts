import { CommandBus } from '@nestjs/cqrs';
import { CARRIER_ROUTES } from '../../src/messaging/ports/carrier.port';
import { CLOCK, ManualClock } from '../../src/shared/clock';
import { EVENT_STORE, EventStore } from '../../src/shared/event-store/event-store.port';
import { GrantCredits } from '../../src/wallet/application/commands/grant-credits.command';
import { loadVerifyOptions, VERIFY_OPTIONS } from '../../src/verify/verify.options';
import { WEBHOOK_OPTIONS, WebhookOptions } from '../../src/webhooks/webhooks.options';
import { createMerchant, Merchant } from '../support/merchant';
import { finalState, SANDBOX, smsLeft } from '../support/messaging';
import { RecordingCarrier, routesTo } from '../support/recording-carrier';
import { eventually, expectError, startTestApp, TestApp, TestResponse } from '../support/test-app';
import { startWebhookReceiver, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 30, Verify over HTTP: every status (pending, approved, failed, expired, canceled), every
 * error code of API.md's Verify section, the fraud guard, pay only for delivered, the masked
 * text in /v1/messages, Idempotency-Key, webhooks and LIVE through a carrier.
 */
jest.setTimeout(120_000);

const TO = '+233246734567';
const create = (
  t: TestApp,
  key: string,
  body: Record<string, unknown> = {},
  headers?: Record<string, string>,
) => t.request('POST', '/v1/verifications', { key, body: { to: TO, sender_id: 'MyShop', ...body }, headers });
const check = (t: TestApp, key: string, id: string, code: string) =>
  t.request('POST', `/v1/verifications/${id}/check`, { key, body: { code } });
const get = (t: TestApp, key: string, id: string) => t.request('GET', `/v1/verifications/${id}`, { key });
/** A code of the same length that is not this one. */
const wrong = (code: string) => code.replace(/./g, (d, i) => (i === 0 ? String((Number(d) + 1) % 10) : d));

function expectRetryAfter(response: TestResponse, atLeast: number, atMost: number): number {
  const seconds = Number(response.headers.get('retry-after'));
  expect(Number.isInteger(seconds)).toBe(true);
  expect(seconds).toBeGreaterThanOrEqual(atLeast);
  expect(seconds).toBeLessThanOrEqual(atMost);
  return seconds;
}

/** Webhook deliveries within moments, retried quickly. */
const FAST_WEBHOOKS: WebhookOptions = {
  retry: { baseMs: 50, maxMs: 1000, windowMs: 60_000 },
  timeoutMs: 3000,
  pollMs: 25,
  perEndpointConcurrency: 4,
  perWalletConcurrency: 16,
  totalConcurrency: 64,
  maxEndpointsPerWallet: 16,
};

/** The events of a stream, read from the log (what the record says, not a read model). */
const streamTypes = async (t: TestApp, stream: string) =>
  (await t.app.get<EventStore>(EVENT_STORE).readStream(stream)).map((e) => e.type);

describe('Verify: one-time codes over SMS (TEST)', () => {
  let t: TestApp;
  let m: Merchant;
  let hooks: WebhookReceiver;

  beforeAll(async () => {
    hooks = await startWebhookReceiver();
    t = await startTestApp({
      env: {
        TEST_DLR_DELAY_MS: '20',
        WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      },
      override: (b) =>
        b
          .overrideProvider(VERIFY_OPTIONS)
          .useValue(
            loadVerifyOptions({
              VERIFY_LIMIT_PER_RANGE_PER_HOUR: '6',
              VERIFY_LIMIT_PER_WALLET_PER_HOUR: '12',
            }),
          )
          .overrideProvider(WEBHOOK_OPTIONS)
          .useValue(FAST_WEBHOOKS),
    });
    m = await createMerchant(t);
  });
  afterAll(async () => {
    await t.close();
    await hooks.close();
  });

  it('starts a pending verification whose SMS is an ordinary message with the code masked', async () => {
    const before = await smsLeft(t, m.testKey);
    const created = await create(t, m.testKey);
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      object: 'verification',
      id: expect.stringMatching(/^ver_[0-9A-Za-z]{22}$/),
      to: TO,
      status: 'pending',
      environment: 'TEST',
      expires_at: expect.any(String),
      checks_left: 5,
      sends: 1,
      message_id: expect.stringMatching(/^msg_/),
      created_at: expect.any(String),
      test_code: expect.stringMatching(/^[0-9]{6}$/),
    });
    expect(Date.parse(created.body.expires_at) - Date.parse(created.body.created_at)).toBe(600_000);
    const message = await finalState(t, m.testKey, created.body.message_id);
    expect(message).toMatchObject({
      status: 'DELIVERED',
      to: TO,
      sender_id: 'MyShop',
      message: 'Your verification code is ******',
      type: 'transactional',
      segments: 1,
      credits: 1,
    });
    const listed = await t.request('GET', '/v1/messages?limit=5', { key: m.testKey });
    expect(listed.body.data.find((x: { id: string }) => x.id === created.body.message_id).message).toBe(
      'Your verification code is ******',
    );
    expect(JSON.stringify(listed.body)).not.toContain(created.body.test_code);
    // Delivered: its credit is spent, as any message's.
    await eventually(async () => ((await smsLeft(t, m.testKey)) === before - 1 ? true : undefined));
  });

  it('approves the right code; a wrong one costs a check; a closed one answers 409', async () => {
    const created = await create(t, m.testKey, { to: '+233246834567' });
    const code: string = created.body.test_code;
    const miss = await check(t, m.testKey, created.body.id, wrong(code));
    expect(miss.status).toBe(200);
    expect(miss.body).toMatchObject({ id: created.body.id, status: 'pending', checks_left: 4 });
    expect(miss.body).not.toHaveProperty('test_code');
    const hit = await check(t, m.testKey, created.body.id, code);
    expect(hit.body).toMatchObject({ status: 'approved', checks_left: 3 });
    expect((await get(t, m.testKey, created.body.id)).body).toEqual(hit.body);
    expectError(await check(t, m.testKey, created.body.id, code), 409, 'verification_closed');
    expectError(
      await t.request('POST', `/v1/verifications/${created.body.id}/resend`, { key: m.testKey }),
      409,
      'verification_closed',
    );
    expectError(
      await t.request('POST', `/v1/verifications/${created.body.id}/cancel`, { key: m.testKey }),
      409,
      'verification_closed',
    );
  });

  it('fails when the last check allowed is wrong, and then takes no code', async () => {
    const created = await create(t, m.testKey, { to: '+233246934567', max_checks: 2, code_length: 4 });
    expect(created.body).toMatchObject({ checks_left: 2, test_code: expect.stringMatching(/^[0-9]{4}$/) });
    expect((await check(t, m.testKey, created.body.id, wrong(created.body.test_code))).body.status).toBe(
      'pending',
    );
    const last = await check(t, m.testKey, created.body.id, wrong(created.body.test_code));
    expect(last.body).toMatchObject({ status: 'failed', checks_left: 0 });
    expectError(
      await check(t, m.testKey, created.body.id, created.body.test_code),
      409,
      'verification_closed',
    );
  });

  it('checks in parallel never get past max_checks', async () => {
    const created = await create(t, m.testKey, { to: '+233247034567', max_checks: 3 });
    const guesses = await Promise.all(
      Array.from({ length: 8 }, () => check(t, m.testKey, created.body.id, wrong(created.body.test_code))),
    );
    expect(guesses.filter((g) => g.status === 200)).toHaveLength(3);
    expect(
      guesses.filter((g) => g.status === 409).every((g) => g.body.error.code === 'verification_closed'),
    ).toBe(true);
    expect((await get(t, m.testKey, created.body.id)).body.status).toBe('failed');
    expectError(
      await check(t, m.testKey, created.body.id, created.body.test_code),
      409,
      'verification_closed',
    );
  });

  it('cancels a pending verification once', async () => {
    const created = await create(t, m.testKey, { to: '+233247134567' });
    const canceled = await t.request('POST', `/v1/verifications/${created.body.id}/cancel`, {
      key: m.testKey,
    });
    expect(canceled.body).toMatchObject({ status: 'canceled' });
    expectError(
      await t.request('POST', `/v1/verifications/${created.body.id}/cancel`, { key: m.testKey }),
      409,
      'verification_closed',
    );
    expectError(
      await check(t, m.testKey, created.body.id, created.body.test_code),
      409,
      'verification_closed',
    );
  });

  it('lists the wallet verifications newest first, and pages', async () => {
    const other = await createMerchant(t);
    const ids: string[] = [];
    for (const to of ['+233241000001', '+233242000002', '+233243000003'])
      ids.push((await create(t, other.testKey, { to })).body.id);
    const all = await t.request('GET', '/v1/verifications', { key: other.testKey });
    expect(all.body).toMatchObject({ object: 'list', has_more: false });
    expect(all.body.data.map((v: { id: string }) => v.id)).toEqual([...ids].reverse());
    expect(JSON.stringify(all.body)).not.toContain('test_code');
    const first = await t.request('GET', '/v1/verifications?limit=2', { key: other.testKey });
    expect(first.body.has_more).toBe(true);
    const next = await t.request('GET', `/v1/verifications?limit=2&starting_after=${first.body.data[1].id}`, {
      key: other.testKey,
    });
    expect(next.body.data.map((v: { id: string }) => v.id)).toEqual([ids[0]]);
    expectError(
      await t.request('GET', '/v1/verifications?limit=0', { key: other.testKey }),
      400,
      'invalid_limit',
    );
    expectError(
      await t.request('GET', `/v1/verifications?starting_after=${ids[0]}`, { key: m.testKey }),
      404,
      'resource_missing',
    );
  });

  it("answers another wallet's or environment's verification, or an unknown id, as 404", async () => {
    const created = await create(t, m.testKey, { to: '+233247234567' });
    const stranger = await createMerchant(t);
    for (const [key, id] of [
      [stranger.testKey, created.body.id],
      [m.liveKey, created.body.id],
      [m.testKey, 'ver_0000000000000000000000'],
      [m.testKey, 'nonsense'],
    ]) {
      expectError(await get(t, key, id), 404, 'resource_missing');
      expectError(await check(t, key, id, '123456'), 404, 'resource_missing');
      expectError(
        await t.request('POST', `/v1/verifications/${id}/resend`, { key }),
        404,
        'resource_missing',
      );
      expectError(
        await t.request('POST', `/v1/verifications/${id}/cancel`, { key }),
        404,
        'resource_missing',
      );
    }
  });

  describe('refuses a bad request with API.md codes, recording and sending nothing', () => {
    it.each([
      ['message without {{code}}', { message: 'Hello' }, 400, 'invalid_message', 'message'],
      [
        'message with {{code}} twice',
        { message: '{{code}} and {{code}}' },
        400,
        'invalid_message',
        'message',
      ],
      [
        'message of 11 segments',
        { message: `{{code}} ${'x'.repeat(1600)}` },
        400,
        'message_too_long',
        'message',
      ],
      ['code_length 3', { code_length: 3 }, 400, 'invalid_code_length', 'code_length'],
      ['code_length 11', { code_length: 11 }, 400, 'invalid_code_length', 'code_length'],
      ['code_length "6"', { code_length: '6' }, 400, 'invalid_code_length', 'code_length'],
      ['expires_in 59', { expires_in: 59 }, 400, 'invalid_expires_in', 'expires_in'],
      ['expires_in 1801', { expires_in: 1801 }, 400, 'invalid_expires_in', 'expires_in'],
      ['max_checks 0', { max_checks: 0 }, 400, 'invalid_max_checks', 'max_checks'],
      ['max_checks 11', { max_checks: 11 }, 400, 'invalid_max_checks', 'max_checks'],
      ['no to', { to: undefined }, 400, 'parameter_missing', 'to'],
      ['a malformed to', { to: '0241234567' }, 400, 'invalid_phone_number', 'to'],
      ['a country without a route', { to: '+4915112345678' }, 400, 'unsupported_destination', 'to'],
      ['a bad sender_id', { sender_id: 'x' }, 400, 'invalid_sender_id', 'sender_id'],
    ])('%s', async (_name, body, status, code, param) => {
      const fresh = await createMerchant(t);
      const response = await create(t, fresh.testKey, body);
      expect(expectError(response, status, code).param).toBe(param);
      expect((await t.request('GET', '/v1/verifications', { key: fresh.testKey })).body.data).toEqual([]);
      expect((await t.request('GET', '/v1/messages', { key: fresh.testKey })).body.data).toEqual([]);
    });

    it('a check whose code is not 4 to 10 digits, without using a check', async () => {
      const created = await create(t, m.testKey, { to: '+233247334567' });
      for (const code of ['abc123', '123', '12345678901', '']) {
        const refused = await check(t, m.testKey, created.body.id, code);
        expect(refused.status).toBe(400);
        expect(refused.body.error).toMatchObject({ param: 'code' });
      }
      expectError(
        await t.request('POST', `/v1/verifications/${created.body.id}/check`, { key: m.testKey, body: {} }),
        400,
        'parameter_missing',
      );
      expect((await get(t, m.testKey, created.body.id)).body.checks_left).toBe(5);
    });

    it('an Idempotency-Key that is not 1-255 printable characters', async () => {
      expectError(
        await create(t, m.testKey, {}, { 'idempotency-key': 'é'.repeat(3) }),
        400,
        'invalid_idempotency_key',
      );
    });
  });

  it('takes an Idempotency-Key: the same body answers the same verification, another body 422', async () => {
    const fresh = await createMerchant(t);
    const key = { 'idempotency-key': 'login-attempt-42' };
    const body = { to: '+233247434567', code_length: 8 };
    const [a, b] = await Promise.all([
      create(t, fresh.testKey, body, key),
      create(t, fresh.testKey, body, key),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body.id).toBe(a.body.id);
    const again = await create(t, fresh.testKey, body, key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual({ ...a.body, test_code: a.body.test_code });
    expectError(
      await create(t, fresh.testKey, { ...body, code_length: 6 }, key),
      422,
      'idempotency_key_reused',
    );
    const list = await t.request('GET', '/v1/verifications', { key: fresh.testKey });
    expect(list.body.data).toHaveLength(1);
    const messages = await t.request('GET', '/v1/messages', { key: fresh.testKey });
    expect(messages.body.data).toHaveLength(1);
  });

  it('pays only for a delivered code: a failed, expired or rejected SMS costs nothing', async () => {
    const fresh = await createMerchant(t);
    const before = await smsLeft(t, fresh.testKey);
    const outcomes: Record<string, string> = {};
    for (const to of [SANDBOX.delivered, SANDBOX.failed, SANDBOX.expired, SANDBOX.rejected]) {
      const created = await create(t, fresh.testKey, { to });
      expect(created.status).toBe(200);
      outcomes[to] = (await finalState(t, fresh.testKey, created.body.message_id)).status;
    }
    expect(outcomes).toEqual({
      [SANDBOX.delivered]: 'DELIVERED',
      [SANDBOX.failed]: 'FAILED',
      [SANDBOX.expired]: 'EXPIRED',
      [SANDBOX.rejected]: 'FAILED',
    });
    await eventually(
      async () => ((await smsLeft(t, fresh.testKey)) === before - 1 ? true : undefined),
      20_000,
      'only the delivered SMS charged',
    );
  });

  describe('the fraud guard', () => {
    const messagesOf = async (key: string) =>
      (await t.request('GET', '/v1/messages?limit=100', { key })).body.data.length;

    it('refuses a 6th verification to one number within the hour, sending and charging nothing', async () => {
      const fresh = await createMerchant(t);
      for (let i = 0; i < 5; i++)
        expect((await create(t, fresh.testKey, { to: '+233551234567' })).status).toBe(200);
      await eventually(async () => ((await smsLeft(t, fresh.testKey)) === 95 ? true : undefined));
      const refused = await create(t, fresh.testKey, { to: '+233551234567' });
      expect(refused.body.error).toMatchObject({ type: 'rate_limit_error', code: 'too_many_verifications' });
      expectError(refused, 429, 'too_many_verifications');
      expectRetryAfter(refused, 3500, 3600);
      expect(await messagesOf(fresh.testKey)).toBe(5);
      expect(await smsLeft(t, fresh.testKey)).toBe(95);
      // Another number of another range still goes; another wallet's count is its own.
      expect((await create(t, fresh.testKey, { to: '+233561234567' })).status).toBe(200);
      expect((await create(t, (await createMerchant(t)).testKey, { to: '+233551234567' })).status).toBe(200);
    });

    it('refuses past the cap per number range (the first 9 digits after +)', async () => {
      const fresh = await createMerchant(t);
      for (let i = 0; i < 6; i++)
        expect((await create(t, fresh.testKey, { to: `+23324777700${i}` })).status).toBe(200);
      expectError(await create(t, fresh.testKey, { to: '+233247777009' }), 429, 'too_many_verifications');
      expect((await create(t, fresh.testKey, { to: '+233247778009' })).status).toBe(200);
    });

    it('refuses past the cap per wallet', async () => {
      const fresh = await createMerchant(t);
      for (let i = 0; i < 12; i++)
        expect(
          (await create(t, fresh.testKey, { to: i < 10 ? `+23324${i}123456` : `+23354${i - 10}123456` }))
            .status,
        ).toBe(200);
      const refused = await create(t, fresh.testKey, { to: '+233591234567' });
      expectError(refused, 429, 'too_many_verifications');
      expect(refused.body.error.message).toContain('wallet');
    });

    it('holds under concurrency: of 20 at once to one number, exactly 5 go', async () => {
      const fresh = await createMerchant(t);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => create(t, fresh.testKey, { to: '+233541234567' })),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(15);
      expect(await messagesOf(fresh.testKey)).toBe(5);
    });

    it('records each refusal as an event and counts it in the metrics', async () => {
      const metrics = await t.request('GET', '/metrics');
      expect(metrics.text).toMatch(
        /sms_verification_refusals_total\{environment="TEST",limit="number"\} [1-9]/,
      );
      expect(metrics.text).toMatch(
        /sms_verification_refusals_total\{environment="TEST",limit="range"\} [1-9]/,
      );
      expect(metrics.text).toMatch(
        /sms_verification_refusals_total\{environment="TEST",limit="wallet"\} [1-9]/,
      );
      expect(metrics.text).not.toMatch(/\+233/);
      const types = await streamTypes(t, `verify-guard-${m.wallets.TEST}`);
      expect(types.every((type) => type === 'VerificationAllowed')).toBe(true);
    });
  });

  it('sends verification.approved and verification.failed webhooks without the code', async () => {
    const fresh = await createMerchant(t);
    const endpoint = await t.request('POST', '/v1/webhook_endpoints', {
      key: fresh.testKey,
      body: {
        url: hooks.url,
        events: ['verification.approved', 'verification.failed', 'verification.expired', 'message.delivered'],
      },
    });
    expect(endpoint.status).toBe(200);
    const approved = await create(t, fresh.testKey, { to: '+233247534567' });
    await finalState(t, fresh.testKey, approved.body.message_id);
    await check(t, fresh.testKey, approved.body.id, approved.body.test_code);
    const failed = await create(t, fresh.testKey, { to: '+233247634567', max_checks: 1 });
    await check(t, fresh.testKey, failed.body.id, wrong(failed.body.test_code));
    const events = await eventually(
      async () => {
        const got = hooks.received.map((r) => JSON.parse(r.raw));
        const mine = got.filter(
          (e) =>
            [approved.body.id, failed.body.id].includes(e.data.id) || e.data.id === approved.body.message_id,
        );
        return mine.length >= 3 ? mine : undefined;
      },
      20_000,
      'the webhooks',
    );
    const byType = Object.fromEntries(events.map((e) => [e.type, e]));
    expect(byType['verification.approved']).toMatchObject({
      object: 'event',
      sequence: 2,
      data: { object: 'verification', id: approved.body.id, status: 'approved' },
    });
    expect(byType['verification.failed'].data).toMatchObject({
      id: failed.body.id,
      status: 'failed',
      checks_left: 0,
    });
    expect(byType['message.delivered'].data.message).toBe('Your verification code is ******');
    const raw = hooks.received.map((r) => r.raw).join('\n');
    expect(raw).not.toContain(approved.body.test_code);
    expect(raw).not.toContain(failed.body.test_code);
  });
});

describe('Verify: expiry and resends (TEST, on a clock the test moves)', () => {
  let t: TestApp;
  let m: Merchant;
  let hooks: WebhookReceiver;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    hooks = await startWebhookReceiver();
    t = await startTestApp({
      env: {
        TEST_DLR_DELAY_MS: '20',
        VERIFY_EXPIRY_SWEEP_MS: '100',
        WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      },
      override: (b) =>
        b.overrideProvider(CLOCK).useValue(clock).overrideProvider(WEBHOOK_OPTIONS).useValue(FAST_WEBHOOKS),
    });
    m = await createMerchant(t);
    await t.request('POST', '/v1/webhook_endpoints', {
      key: m.testKey,
      body: { url: hooks.url, events: ['verification.expired'] },
    });
  });
  afterAll(async () => {
    await t.close();
    await hooks.close();
  });

  it('reads expired at once past expires_at, records it by a process, and a check then answers expired', async () => {
    const created = await create(t, m.testKey, { to: '+233248034567', expires_in: 60 });
    await finalState(t, m.testKey, created.body.message_id);
    clock.advance(59_000);
    expect((await get(t, m.testKey, created.body.id)).body.status).toBe('pending');
    clock.advance(1_000);
    expect((await get(t, m.testKey, created.body.id)).body.status).toBe('expired');
    await eventually(
      async () =>
        (await streamTypes(t, `verification-${created.body.id}`)).includes('VerificationExpired')
          ? true
          : undefined,
      20_000,
      'the expiry process to record VerificationExpired',
    );
    const late = await check(t, m.testKey, created.body.id, created.body.test_code);
    expect(late.status).toBe(200);
    expect(late.body.status).toBe('expired');
    expectError(
      await t.request('POST', `/v1/verifications/${created.body.id}/resend`, { key: m.testKey }),
      409,
      'verification_closed',
    );
    expectError(
      await t.request('POST', `/v1/verifications/${created.body.id}/cancel`, { key: m.testKey }),
      409,
      'verification_closed',
    );
    const event = await eventually(
      async () => {
        const found = hooks.received.map((r) => JSON.parse(r.raw)).find((e) => e.data.id === created.body.id);
        return found ?? undefined;
      },
      20_000,
      'verification.expired',
    );
    expect(event).toMatchObject({ type: 'verification.expired', data: { status: 'expired' } });
    const types = await streamTypes(t, `verification-${created.body.id}`);
    expect(types.filter((type) => type === 'VerificationExpired')).toHaveLength(1);
  });

  it('a check that finds it past expires_at answers expired before the process has run', async () => {
    const created = await create(t, m.testKey, { to: '+233248134567', expires_in: 60 });
    clock.advance(60_000);
    const late = await check(t, m.testKey, created.body.id, created.body.test_code);
    expect(late.body.status).toBe('expired');
  });

  it('resends at least 30 s apart with a new code, the old one no longer working, at most 5 sends', async () => {
    const created = await create(t, m.testKey, { to: '+233248234567', max_checks: 10 });
    const first: string = created.body.test_code;
    const tooSoon = await t.request('POST', `/v1/verifications/${created.body.id}/resend`, {
      key: m.testKey,
    });
    expectError(tooSoon, 429, 'resend_too_soon');
    expect(tooSoon.body.error.type).toBe('rate_limit_error');
    expectRetryAfter(tooSoon, 30, 30);
    clock.advance(20_000);
    expectRetryAfter(
      await t.request('POST', `/v1/verifications/${created.body.id}/resend`, { key: m.testKey }),
      10,
      10,
    );
    clock.advance(10_000);
    const resent = await t.request('POST', `/v1/verifications/${created.body.id}/resend`, { key: m.testKey });
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({
      status: 'pending',
      sends: 2,
      test_code: expect.stringMatching(/^[0-9]{6}$/),
    });
    expect(resent.body.message_id).not.toBe(created.body.message_id);
    expect(Date.parse(resent.body.expires_at)).toBe(clock.now().getTime() + 600_000);
    const second: string = resent.body.test_code;
    expect((await finalState(t, m.testKey, resent.body.message_id)).message).toBe(
      'Your verification code is ******',
    );
    if (first !== second) {
      expect((await check(t, m.testKey, created.body.id, first)).body).toMatchObject({
        status: 'pending',
        checks_left: 9,
      });
    }
    for (let send = 3; send <= 5; send++) {
      clock.advance(30_000);
      const again = await t.request('POST', `/v1/verifications/${created.body.id}/resend`, {
        key: m.testKey,
      });
      expect(again.body.sends).toBe(send);
    }
    clock.advance(30_000);
    expectError(
      await t.request('POST', `/v1/verifications/${created.body.id}/resend`, { key: m.testKey }),
      409,
      'max_sends_reached',
    );
    const latest = (await get(t, m.testKey, created.body.id)).body;
    expect(latest.sends).toBe(5);
    const messages = await t.request('GET', '/v1/messages?limit=100', { key: m.testKey });
    expect(messages.body.data.filter((x: { to: string }) => x.to === '+233248234567')).toHaveLength(5);
  });

  it('lets a number verify again once its oldest verification leaves the hour', async () => {
    const fresh = await createMerchant(t);
    for (let i = 0; i < 5; i++) {
      expect((await create(t, fresh.testKey, { to: '+233201234567' })).status).toBe(200);
      clock.advance(60_000);
    }
    const refused = await create(t, fresh.testKey, { to: '+233201234567' });
    expectRetryAfter(refused, 3300, 3300);
    clock.advance(3_300_000);
    expect((await create(t, fresh.testKey, { to: '+233201234567' })).status).toBe(200);
  });

  it('keeps an Idempotency-Key for 24 hours, then takes it as new', async () => {
    const fresh = await createMerchant(t);
    const key = { 'idempotency-key': 'signup-1' };
    const first = await create(t, fresh.testKey, { to: '+233241234590' }, key);
    clock.advance(23 * 3_600_000);
    const replay = await create(t, fresh.testKey, { to: '+233241234590' }, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    clock.advance(3_600_000);
    const later = await create(t, fresh.testKey, { to: '+233241234590' }, key);
    expect(later.status).toBe(200);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.id).not.toBe(first.body.id);
  });
});

describe('Verify: LIVE, through a carrier', () => {
  let t: TestApp;
  let m: Merchant;
  const mtn = new RecordingCarrier('MTN');

  beforeAll(async () => {
    t = await startTestApp({ override: (b) => b.overrideProvider(CARRIER_ROUTES).useValue(routesTo(mtn)) });
    m = await createMerchant(t);
  });
  afterAll(() => t.close());

  it('refuses with 402 when sms_left does not cover the SMS, recording nothing', async () => {
    const refused = await create(t, m.liveKey);
    expectError(refused, 402, 'insufficient_credit');
    expect((await t.request('GET', '/v1/verifications', { key: m.liveKey })).body.data).toEqual([]);
    expect(mtn.received).toHaveLength(0);
    // Its allowance under the fraud guard was given back: it counts towards no cap.
    expect(await streamTypes(t, `verify-guard-${m.wallets.LIVE}`)).toEqual([
      'VerificationAllowed',
      'VerificationAllowanceReturned',
    ]);
  });

  it('applies LIVE sender ID rules and needs a carrier connection', async () => {
    await t.app.get(CommandBus).execute(new GrantCredits(m.wallets.LIVE, 10, 'test'));
    expectError(await create(t, m.liveKey, { sender_id: 'OtherShop' }), 422, 'sender_id_not_approved');
    expectError(await create(t, m.liveKey, { to: '+233201234567' }), 400, 'carrier_unavailable');
  });

  it('hands the carrier the code, shows it masked, gives no test_code, and charges on DELIVERED only', async () => {
    const created = await create(t, m.liveKey, {
      message: 'MyShop code: {{code}}. Do not share it.',
      code_length: 10,
    });
    expect(created.status).toBe(200);
    expect(created.body).not.toHaveProperty('test_code');
    expect(created.body.environment).toBe('LIVE');
    const handed = await eventually(async () =>
      mtn.received.find((x) => x.messageId === created.body.message_id),
    );
    const code = /code: ([0-9]{10})\./.exec(handed.body)?.[1];
    expect(code).toBeDefined();
    const read = await t.request('GET', `/v1/messages/${created.body.message_id}`, { key: m.liveKey });
    expect(read.body.message).toBe('MyShop code: **********. Do not share it.');
    expect(await smsLeft(t, m.liveKey)).toBe(9);
    await mtn.report(created.body.message_id, 'DELIVERED');
    expect((await check(t, m.liveKey, created.body.id, code!)).body.status).toBe('approved');
    await eventually(async () => ((await smsLeft(t, m.liveKey)) === 9 ? true : undefined));

    const undelivered = await create(t, m.liveKey, { to: '+233249034567' });
    await eventually(async () => mtn.received.find((x) => x.messageId === undelivered.body.message_id));
    expect(await smsLeft(t, m.liveKey)).toBe(8);
    await mtn.report(undelivered.body.message_id, 'FAILED');
    await eventually(
      async () => ((await smsLeft(t, m.liveKey)) === 9 ? true : undefined),
      20_000,
      'the failed SMS released',
    );
  });
});
