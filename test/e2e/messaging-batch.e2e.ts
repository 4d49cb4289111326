import { randomUUID } from 'node:crypto';
import { WalletService } from '../../src/wallet/application/wallet.service';
import { createMerchant, Merchant } from '../support/merchant';
import { finalState, SANDBOX, send, settledSmsLeft, smsLeft } from '../support/messaging';
import { expectError, startTestApp, TestApp } from '../support/test-app';

describe('Messaging: POST /v1/messages/batch', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TEST_DLR_DELAY_MS: '20' } });
  });
  afterAll(() => t.close());

  const batch = (key: string, body: unknown, headers?: Record<string, string>) =>
    t.request('POST', '/v1/messages/batch', { key, body, headers });
  const items = (n: number, to = '+233241234567') => Array.from({ length: n }, () => ({ to }));
  const shared = (messages: unknown[], extra: Record<string, unknown> = {}) => ({
    sender_id: 'MyShop',
    type: 'transactional',
    message: 'Our sale starts today',
    messages,
    ...extra,
  });
  const reservations = async (m: Merchant) =>
    (
      (await t.request('GET', '/v1/wallet/events?limit=1000', { key: m.testKey })).body.data as {
        type: string;
        data: { messageId?: string };
      }[]
    ).filter((e) => e.type === 'CreditsReserved');
  const grant = (m: Merchant, sms: number) =>
    t.app.get(WalletService).addCredits(m.wallets.TEST, {
      sourceId: `grant-${randomUUID()}`,
      source: 'operator_grant',
      sms,
      reason: 'batch tests',
    });
  const slot = (d: { id?: string; error?: { code: string; param: string } }) =>
    d.id ?? `${d.error?.code} at ${d.error?.param}`;
  const listIds = async (key: string, query: string) => {
    const r = await t.request('GET', `/v1/messages?${query}`, { key });
    expect(r.status).toBe(200);
    return r.body as { data: { id: string }[]; has_more: boolean };
  };

  it('sends the valid items and answers each refused one in its slot, with the param of its field', async () => {
    const m = await createMerchant(t);
    const r = await batch(
      m.testKey,
      shared([
        { to: '+233241234567' },
        { to: '+23324' },
        { to: '+233201234567', message: 'Ж'.repeat(71) },
        { to: '+447911123456' },
        { to: '+233241234567', message: '' },
        { message: 'No number' },
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      object: 'batch',
      id: expect.stringMatching(/^bat_/),
      accepted: 2,
      refused: 4,
    });
    const [first, badTo, own, abroad, empty, noNumber] = r.body.data;
    expect(first).toMatchObject({
      id: expect.stringMatching(/^msg_/),
      object: 'message',
      status: 'QUEUED',
      to: '+233241234567',
      sender_id: 'MyShop',
      message: 'Our sale starts today',
      credits: 1,
    });
    expect(own).toMatchObject({
      object: 'message',
      carrier: 'TELECEL',
      encoding: 'UCS-2',
      segments: 2,
      credits: 2,
    });
    const requestId = r.headers.get('x-request-id');
    expect(badTo).toEqual({
      error: {
        type: 'invalid_request_error',
        code: 'invalid_phone_number',
        message: expect.any(String),
        param: 'messages[1].to',
        request_id: requestId,
      },
    });
    expect(abroad.error).toMatchObject({ code: 'unsupported_destination', param: 'messages[3].to' });
    expect(empty.error).toMatchObject({ code: 'invalid_message', param: 'messages[4].message' });
    expect(noNumber.error).toMatchObject({ code: 'parameter_missing', param: 'messages[5].to' });
    // The codes are exactly the single send's.
    expectError(await send(t, m.testKey, { to: '+23324' }), 400, badTo.error.code);

    expect(await smsLeft(t, m.testKey)).toBe(100 - 3);
    expect((await reservations(m)).map((e) => e.data.messageId).sort()).toEqual([first.id, own.id].sort());
    const read = await t.request('GET', `/v1/messages/${own.id}`, { key: m.testKey });
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(own.id);
  });

  it('refuses the whole batch when its shape is wrong: an item that is not an object, or a field that is not text', async () => {
    const m = await createMerchant(t);
    const notAnItem = await batch(m.testKey, shared([{ to: '+233241234567' }, 'nope']));
    expect(expectError(notAnItem, 400, 'parameter_invalid')).toMatchObject({
      param: 'messages[1]',
      message: 'messages[1] must be an object',
    });
    const notText = await batch(m.testKey, shared([{ to: 233241234567 }]));
    expect(expectError(notText, 400, 'parameter_invalid')).toMatchObject({
      param: 'messages[0].to',
      message: 'to must be a string',
    });
    expect(await smsLeft(t, m.testKey)).toBe(100);
  });

  it('answers a batch with no valid item with every refusal, and records nothing of it', async () => {
    const m = await createMerchant(t);
    const r = await batch(m.testKey, shared([{ to: 'x' }, { to: '+447911123456' }]));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ object: 'batch', id: null, accepted: 0, refused: 2 });
    expect(r.body.data.map((d: { error: { param: string } }) => d.error.param)).toEqual([
      'messages[0].to',
      'messages[1].to',
    ]);
    expect(await smsLeft(t, m.testKey)).toBe(100);
    expect((await listIds(m.testKey, 'limit=100')).data).toEqual([]);
  });

  it('names the item whose carrier this environment has no connection to (LIVE here has none)', async () => {
    const m = await createMerchant(t);
    const r = await batch(m.liveKey, shared([{ to: '+233241234567' }]));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ accepted: 0, refused: 1 });
    expect(r.body.data[0].error).toMatchObject({ code: 'carrier_unavailable', param: 'messages[0].to' });
  });

  it('refuses the whole batch with 402 and reserves nothing when the wallet cannot cover every item', async () => {
    const m = await createMerchant(t);
    await t.app.get(WalletService).reserve(m.wallets.TEST, 'msg_drainBatchTest000001', 95);
    const r = await batch(
      m.testKey,
      shared([...items(5), { to: '+233241234567', message: 'x'.repeat(161) }]),
    );
    expectError(r, 402, 'insufficient_credit');
    expect(r.body.error.message).toBe('This batch needs 7 credits but the wallet has 5 left');
    expect(await smsLeft(t, m.testKey)).toBe(5);
    expect(await reservations(m)).toHaveLength(1);
    expect((await listIds(m.testKey, 'limit=100')).data).toEqual([]);
    // Five do fit, together.
    const fits = await batch(m.testKey, shared(items(5)));
    expect(fits.status).toBe(200);
    expect(fits.body.accepted).toBe(5);
    expect(await smsLeft(t, m.testKey)).toBe(0);
  });

  it('replays the same answer for the same Idempotency-Key, reserving once', async () => {
    const m = await createMerchant(t);
    const key = randomUUID();
    const body = shared([{ to: SANDBOX.delivered }, { to: 'bad' }, { to: '+233241234567', message: 'Own' }]);
    const first = await batch(m.testKey, body, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await batch(m.testKey, body, { 'idempotency-key': key });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.accepted).toBe(2);
    expect(again.body.refused).toBe(1);
    expect(again.body.data.map(slot)).toEqual(first.body.data.map(slot));
    expect(first.body.data.map(slot)).toEqual([
      expect.stringMatching(/^msg_/),
      'invalid_phone_number at messages[1].to',
      expect.stringMatching(/^msg_/),
    ]);
    expect(await reservations(m)).toHaveLength(2);
    expect(await smsLeft(t, m.testKey)).toBeGreaterThanOrEqual(98);

    const changed = await batch(m.testKey, { ...body, message: 'Another text' }, { 'idempotency-key': key });
    expectError(changed, 422, 'idempotency_key_reused');
    // The key of a batch is not a single send's key.
    expectError(await send(t, m.testKey, {}, { 'idempotency-key': key }), 422, 'idempotency_key_reused');
  });

  it('records a 402 under the key and replays it', async () => {
    const m = await createMerchant(t);
    const key = randomUUID();
    expectError(
      await batch(m.testKey, shared(items(101)), { 'idempotency-key': key }),
      402,
      'insufficient_credit',
    );
    await grant(m, 1000);
    const replay = await batch(m.testKey, shared(items(101)), { 'idempotency-key': key });
    expectError(replay, 402, 'insufficient_credit');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await reservations(m)).toHaveLength(0);
  });

  it('never overspends when single sends and batches race for the same credits', async () => {
    const m = await createMerchant(t);
    const responses = await Promise.all([
      batch(m.testKey, shared(items(40))),
      ...Array.from({ length: 40 }, () => send(t, m.testKey)),
      batch(m.testKey, shared(items(40))),
    ]);
    const batches = [responses[0], responses[41]];
    const singles = responses.slice(1, 41);
    for (const r of batches) if (r.status !== 200) expectError(r, 402, 'insufficient_credit');
    for (const r of singles) if (r.status !== 200) expectError(r, 402, 'insufficient_credit');
    const accepted =
      batches.filter((r) => r.status === 200).reduce((n, r) => n + r.body.accepted, 0) +
      singles.filter((r) => r.status === 200).length;
    expect(accepted).toBeLessThanOrEqual(100);
    expect(accepted).toBeGreaterThanOrEqual(60);
    expect(await smsLeft(t, m.testKey)).toBe(100 - accepted);
    expect(await reservations(m)).toHaveLength(accepted);
  });

  it('lists exactly a batch’s messages with ?batch=, page by page; an unknown or another wallet’s batch is 404', async () => {
    const m = await createMerchant(t);
    const other = await createMerchant(t);
    // A refused item (its slot answers an error) has no message to list.
    const mine = await batch(m.testKey, shared([...items(2), { to: '12' }, ...items(3)]));
    const theirs = await send(t, m.testKey);
    await batch(m.testKey, shared(items(2)));
    const ids = mine.body.data.flatMap((d: { id?: string }) => (d.id ? [d.id] : []));
    expect(ids).toHaveLength(5);

    const all = await listIds(m.testKey, `batch=${mine.body.id}`);
    expect(all.data.map((d) => d.id)).toEqual([...ids].reverse()); // newest (last item) first
    expect(all.has_more).toBe(false);
    const firstPage = await listIds(m.testKey, `batch=${mine.body.id}&limit=3`);
    expect(firstPage.has_more).toBe(true);
    const rest = await listIds(
      m.testKey,
      `batch=${mine.body.id}&limit=3&starting_after=${firstPage.data[2].id}`,
    );
    expect(rest.has_more).toBe(false);
    expect([...firstPage.data, ...rest.data].map((d) => d.id)).toEqual(all.data.map((d) => d.id));
    // A cursor that is not one of the batch's messages names no place in it.
    const outside = await t.request(
      'GET',
      `/v1/messages?batch=${mine.body.id}&starting_after=${theirs.body.id}`,
      { key: m.testKey },
    );
    expect(expectError(outside, 404, 'resource_missing').param).toBe('starting_after');

    for (const [key, id] of [
      [m.testKey, 'bat_unknown000000000000000'],
      [m.testKey, 'nope'],
      [other.testKey, mine.body.id],
      [m.liveKey, mine.body.id],
    ]) {
      const r = await t.request('GET', `/v1/messages?batch=${id}`, { key });
      expect(expectError(r, 404, 'resource_missing').param).toBe('batch');
    }
  });

  it('sends batch messages like any other: dispatched, reported and settled', async () => {
    const m = await createMerchant(t);
    const r = await batch(m.testKey, shared([{ to: SANDBOX.delivered }, { to: SANDBOX.failed }]));
    expect(r.status).toBe(200);
    const [delivered, failed] = r.body.data;
    expect((await finalState(t, m.testKey, delivered.id)).status).toBe('DELIVERED');
    expect((await finalState(t, m.testKey, failed.id)).dlr).toMatchObject({
      status: 'FAILED',
      error_code: 'undeliverable',
    });
    await settledSmsLeft(t, m, 99);
  });

  describe('what the whole batch is refused for', () => {
    let m: Merchant;
    beforeAll(async () => {
      m = await createMerchant(t);
    });

    it.each([
      ['no messages', { sender_id: 'MyShop', type: 'transactional' }, 'parameter_missing', 'messages'],
      ['an empty list', shared([]), 'invalid_batch_size', 'messages'],
      ['a list that is not one', { ...shared([]), messages: 'x' }, 'parameter_invalid', 'messages'],
      ['1,001 items', shared(items(1001)), 'invalid_batch_size', 'messages'],
      ['a bad sender_id', shared(items(1), { sender_id: 'x' }), 'invalid_sender_id', 'sender_id'],
      ['a bad type', shared(items(1), { type: 'bulk' }), 'invalid_type', 'type'],
      [
        'a bad shared message',
        shared(items(1), { message: 'z'.repeat(1531) }),
        'message_too_long',
        'message',
      ],
    ])('%s: 400 with param, nothing reserved', async (_name, body, code, param) => {
      const r = await batch(m.testKey, body);
      expect(expectError(r, 400, code).param).toBe(param);
      expect(await smsLeft(t, m.testKey)).toBe(100);
    });

    it('takes a body of up to 2 MiB (1,000 items of 10 segments), and no more; other bodies keep 16 KiB', async () => {
      const rich = await createMerchant(t);
      await grant(rich, 10_000);
      const tenSegments = 'a'.repeat(1530);
      const full = shared(
        Array.from({ length: 1000 }, () => ({ to: '+233241234567', message: tenSegments })),
      );
      expect(Buffer.byteLength(JSON.stringify(full))).toBeGreaterThan(1024 * 1024);
      const r = await batch(rich.testKey, full);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ accepted: 1000, refused: 0 });
      expect(await smsLeft(t, rich.testKey)).toBe(10_100 - 10_000);

      const tooBig = shared(items(1), { padding: 'p'.repeat(2 * 1024 * 1024) });
      expectError(await batch(rich.testKey, tooBig), 413, 'body_too_large');
      expectError(await send(t, rich.testKey, { padding: 'p'.repeat(17 * 1024) }), 413, 'body_too_large');
    });
  });
});
