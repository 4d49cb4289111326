import { WalletService } from '../../src/wallet/application/wallet.service';
import { createMerchant, Merchant } from '../support/merchant';
import { finalState, SANDBOX, send, sendBody, settledSmsLeft, smsLeft } from '../support/messaging';
import { eventually, expectError, startTestApp, TestApp } from '../support/test-app';

describe('Messaging: the send path, TEST simulation, delivery reports and settlement', () => {
  let t: TestApp;
  let merchant: Merchant;
  beforeAll(async () => {
    t = await startTestApp({ env: { TEST_DLR_DELAY_MS: '20' } });
    merchant = await createMerchant(t);
  });
  afterAll(() => t.close());

  it('accepts a send with 200 QUEUED and the message object of API.md, readable at once', async () => {
    const response = await send(t, merchant.testKey);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^msg_[0-9A-Za-z]{22}$/),
      object: 'message',
      status: 'QUEUED',
      environment: 'TEST',
      to: '+233241234567',
      sender_id: 'MyShop',
      message: 'Hello from the test suite',
      type: 'transactional',
      carrier: 'MTN',
      encoding: 'GSM-7',
      segments: 1,
      credits: 1,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      send_at: null,
      dlr: null,
    });
    const read = await t.request('GET', `/v1/messages/${response.body.id}`, { key: merchant.testKey });
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(response.body.id);
    const final = await finalState(t, merchant.testKey, response.body.id);
    expect(final.status).toBe('DELIVERED');
    expect(final.dlr).toEqual({
      status: 'DELIVERED',
      error_code: null,
      error_message: null,
      carrier_status: 'DELIVRD',
      reported_at: expect.any(String),
    });
  });

  describe('sandbox numbers end as documented and settle the wallet', () => {
    it.each([
      ['DELIVERED', SANDBOX.delivered, 'DELIVERED', null, 'DELIVRD', true],
      ['FAILED undeliverable', SANDBOX.failed, 'FAILED', 'undeliverable', 'UNDELIV', false],
      ['EXPIRED', SANDBOX.expired, 'EXPIRED', null, 'EXPIRED', false],
      ['FAILED rejected at submit', SANDBOX.rejected, 'FAILED', 'rejected', null, false],
    ])('%s', async (_name, to, status, errorCode, carrierStatus, captured) => {
      const m = await createMerchant(t);
      const response = await send(t, m.testKey, { to, message: 'x'.repeat(161) });
      expect(response.body).toMatchObject({ status: 'QUEUED', segments: 2, credits: 2, carrier: 'TELECEL' });
      const final = await finalState(t, m.testKey, response.body.id);
      expect(final.status).toBe(status);
      expect(final.dlr).toMatchObject({ status, error_code: errorCode, carrier_status: carrierStatus });
      await settledSmsLeft(t, m, captured ? 98 : 100);
      const events = await t.request('GET', '/v1/wallet/events', { key: m.testKey });
      const types = events.body.data.map((e: { type: string }) => e.type);
      expect(events.body.data.find((e: { type: string }) => e.type === 'CreditsReserved').data).toMatchObject(
        { messageId: response.body.id, sms: 2 },
      );
      expect(types).toContain(captured ? 'ReservationCaptured' : 'ReservationReleased');
      expect(
        types.filter((type: string) => type === 'ReservationCaptured' || type === 'ReservationReleased'),
      ).toHaveLength(1);
    });

    it('the rejected number never reaches SENT', async () => {
      const response = await send(t, merchant.testKey, { to: SANDBOX.rejected });
      const final = await finalState(t, merchant.testKey, response.body.id);
      expect(final).toMatchObject({ status: 'FAILED', dlr: { error_code: 'rejected' } });
    });
  });

  describe('validation answers API.md codes naming the param', () => {
    it.each([
      ['invalid_phone_number', { to: '0241234567' }, 'to'],
      ['invalid_phone_number', { to: '+23325123456' }, 'to'],
      ['invalid_sender_id', { sender_id: 'x' }, 'sender_id'],
      ['invalid_sender_id', { sender_id: 'ThisIsTooLongForASender' }, 'sender_id'],
      ['message_too_long', { message: 'a'.repeat(153 * 10 + 1) }, 'message'],
      ['invalid_type', { type: 'marketing' }, 'type'],
      ['parameter_missing', { message: undefined }, 'message'],
      ['parameter_missing', { to: undefined }, 'to'],
      ['unsupported_destination', { to: '+2348031234567' }, 'to'],
    ])('%s (%j)', async (code, overrides, param) => {
      const before = await smsLeft(t, merchant.testKey);
      const error = expectError(await send(t, merchant.testKey, overrides), 400, code);
      expect(error.param).toBe(param);
      expect(error.type).toBe('invalid_request_error');
      expect(await smsLeft(t, merchant.testKey)).toBe(before);
    });

    it('refuses a body that is not a JSON object', async () => {
      expectError(
        await t.request('POST', '/v1/messages', { key: merchant.testKey, body: '[1,2]' }),
        400,
        'invalid_request',
      );
      expectError(
        await t.request('POST', '/v1/messages', { key: merchant.testKey, body: '"hello"' }),
        400,
        'invalid_request',
      );
    });

    it('needs a key', async () => {
      expectError(await t.request('POST', '/v1/messages', { body: sendBody() }), 401, 'invalid_api_key');
    });
  });

  describe('segments and credits at the encoding boundaries', () => {
    it.each([
      ['160 GSM-7', 'a'.repeat(160), 'GSM-7', 1],
      ['161 GSM-7', 'a'.repeat(161), 'GSM-7', 2],
      ['306 GSM-7 (153×2)', 'a'.repeat(306), 'GSM-7', 2],
      ['307 GSM-7', 'a'.repeat(307), 'GSM-7', 3],
      ['1530 GSM-7 (153×10)', 'a'.repeat(1530), 'GSM-7', 10],
      ['80 extension chars count 2 each', '€'.repeat(80), 'GSM-7', 1],
      ['81 extension chars', '€'.repeat(81), 'GSM-7', 2],
      ['159 + one extension char', 'a'.repeat(159) + '{', 'GSM-7', 2],
      ['70 UCS-2', 'é'.repeat(0) + 'ж'.repeat(70), 'UCS-2', 1],
      ['71 UCS-2', 'ж'.repeat(71), 'UCS-2', 2],
      ['134 UCS-2 (67×2)', 'ж'.repeat(134), 'UCS-2', 2],
      ['135 UCS-2', 'ж'.repeat(135), 'UCS-2', 3],
    ])('%s', async (_name, message, encoding, segments) => {
      const m = await createMerchant(t);
      const response = await send(t, m.testKey, { message });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ encoding, segments, credits: segments });
      expect(await smsLeft(t, m.testKey)).toBe(100 - segments);
    });
  });

  it('answers 402 insufficient_credit when the wallet is short, reserving nothing', async () => {
    const m = await createMerchant(t);
    await t.app.get(WalletService).reserve(m.wallets.TEST, 'msg_drainDrainDrain0001', 95);
    expect(await smsLeft(t, m.testKey)).toBe(5);
    const response = await send(t, m.testKey, { message: 'a'.repeat(153 * 6) });
    const error = expectError(response, 402, 'insufficient_credit');
    expect(error.type).toBe('insufficient_credit');
    expect(await smsLeft(t, m.testKey)).toBe(5);
    const ok = await send(t, m.testKey, { message: 'a'.repeat(153 * 5) });
    expect(ok.body).toMatchObject({ status: 'QUEUED', credits: 5 });
    expect(await smsLeft(t, m.testKey)).toBe(0);
  });

  it('routes Ghana numbers to MTN, TELECEL and AT by prefix', async () => {
    const cases: [string, string][] = [
      ['+233241234567', 'MTN'],
      ['+233541234567', 'MTN'],
      ['+233201234567', 'TELECEL'],
      ['+233501234567', 'TELECEL'],
      ['+233261234567', 'AT'],
      ['+233271234567', 'AT'],
    ];
    for (const [to, carrier] of cases) {
      const response = await send(t, merchant.testKey, { to });
      expect({ to, status: response.status, carrier: response.body.carrier }).toEqual({
        to,
        status: 200,
        carrier,
      });
    }
  });

  it('refuses LIVE sends to a carrier without a configured connection before reserving', async () => {
    const m = await createMerchant(t);
    const error = expectError(await send(t, m.liveKey), 400, 'carrier_unavailable');
    expect(error.param).toBe('to');
    const events = await t.request('GET', '/v1/wallet/events', { key: m.liveKey });
    expect(events.body.data.map((e: { type: string }) => e.type)).not.toContain('CreditsReserved');
  });

  it('reads only its own wallet and environment: others get 404 resource_missing', async () => {
    const mine = await send(t, merchant.testKey);
    const other = await createMerchant(t);
    expectError(
      await t.request('GET', `/v1/messages/${mine.body.id}`, { key: other.testKey }),
      404,
      'resource_missing',
    );
    expectError(
      await t.request('GET', `/v1/messages/${mine.body.id}`, { key: merchant.liveKey }),
      404,
      'resource_missing',
    );
    expectError(
      await t.request('GET', '/v1/messages/msg_doesNotExist000000000', { key: merchant.testKey }),
      404,
      'resource_missing',
    );
    expectError(
      await t.request('GET', '/v1/messages/not-an-id', { key: merchant.testKey }),
      404,
      'resource_missing',
    );
    const list = await t.request('GET', '/v1/messages', { key: other.testKey });
    expect(list.body).toEqual({ object: 'list', data: [], has_more: false });
  });

  it('lists newest first with limit, starting_after and has_more', async () => {
    const m = await createMerchant(t);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await send(t, m.testKey, { message: `number ${i}` })).body.id);
    const newestFirst = [...ids].reverse();
    const first = await t.request('GET', '/v1/messages?limit=2', { key: m.testKey });
    expect(first.body.object).toBe('list');
    expect(first.body.data.map((d: { id: string }) => d.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.body.has_more).toBe(true);
    const second = await t.request('GET', `/v1/messages?limit=2&starting_after=${first.body.data[1].id}`, {
      key: m.testKey,
    });
    expect(second.body.data.map((d: { id: string }) => d.id)).toEqual(newestFirst.slice(2, 4));
    expect(second.body.has_more).toBe(true);
    const third = await t.request('GET', `/v1/messages?limit=2&starting_after=${second.body.data[1].id}`, {
      key: m.testKey,
    });
    expect(third.body.data.map((d: { id: string }) => d.id)).toEqual(newestFirst.slice(4));
    expect(third.body.has_more).toBe(false);
    const all = await t.request('GET', '/v1/messages', { key: m.testKey });
    expect(all.body.data).toHaveLength(5);
    expect(all.body.data[0]).toMatchObject({ object: 'message', id: ids[4] });
    expectError(await t.request('GET', '/v1/messages?limit=0', { key: m.testKey }), 400, 'invalid_limit');
  });

  it('quotes carrier, encoding, segments, credits, sms_left and sendable without reserving', async () => {
    const m = await createMerchant(t);
    const quote = await t.request('POST', '/v1/messages/quote', {
      key: m.testKey,
      body: sendBody({ to: '+233201234567', message: 'ж'.repeat(71) }),
    });
    expect(quote.status).toBe(200);
    expect(quote.body).toEqual({
      object: 'quote',
      to: '+233201234567',
      carrier: 'TELECEL',
      encoding: 'UCS-2',
      segments: 2,
      credits: 2,
      sms_left: 100,
      sendable: true,
    });
    expect(await smsLeft(t, m.testKey)).toBe(100);
    const events = await t.request('GET', '/v1/wallet/events', { key: m.testKey });
    expect(events.body.data.map((e: { type: string }) => e.type)).not.toContain('CreditsReserved');
    expect((await t.request('GET', '/v1/messages', { key: m.testKey })).body.data).toHaveLength(0);
    expectError(
      await t.request('POST', '/v1/messages/quote', { key: m.testKey, body: sendBody({ type: 'x' }) }),
      400,
      'invalid_type',
    );
    await t.app.get(WalletService).reserve(m.wallets.TEST, 'msg_drainDrainDrain0002', 99);
    const short = await t.request('POST', '/v1/messages/quote', {
      key: m.testKey,
      body: sendBody({ message: 'a'.repeat(161) }),
    });
    expect(short.body).toMatchObject({ sms_left: 1, credits: 2, sendable: false });
  });

  it('a message never shows an older state than one already returned', async () => {
    const response = await send(t, merchant.testKey);
    const order = ['QUEUED', 'SENT', 'DELIVERED'];
    let seen = 0;
    await eventually(async () => {
      const r = await t.request('GET', `/v1/messages/${response.body.id}`, { key: merchant.testKey });
      const index = order.indexOf(r.body.status);
      expect(index).toBeGreaterThanOrEqual(seen);
      seen = index;
      return r.body.status === 'DELIVERED' ? true : undefined;
    });
  });
});
