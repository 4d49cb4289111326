import { randomUUID } from 'node:crypto';
import { WalletService } from '../../src/wallet/application/wallet.service';
import { createMerchant } from '../support/merchant';
import { send, smsLeft } from '../support/messaging';
import { eventually, expectError, startTestApp, TestApp } from '../support/test-app';

describe('Messaging: Idempotency-Key on POST /v1/messages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TEST_DLR_DELAY_MS: '20' } });
  });
  afterAll(() => t.close());

  const walletEvents = async (key: string) =>
    (await t.request('GET', '/v1/wallet/events?limit=1000', { key })).body.data as {
      type: string;
      data: { messageId?: string };
    }[];

  it('replays the same message (same id) with Idempotent-Replayed: true', async () => {
    const m = await createMerchant(t);
    const key = randomUUID();
    const first = await send(t, m.testKey, {}, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await send(t, m.testKey, {}, { 'idempotency-key': key });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await smsLeft(t, m.testKey)).toBeGreaterThanOrEqual(99);
    expect((await walletEvents(m.testKey)).filter((e) => e.type === 'CreditsReserved')).toHaveLength(1);
  });

  it('answers 422 idempotency_key_reused for a different body with the same key', async () => {
    const m = await createMerchant(t);
    const key = randomUUID();
    expect((await send(t, m.testKey, {}, { 'idempotency-key': key })).status).toBe(200);
    const changed = await send(t, m.testKey, { message: 'Something else' }, { 'idempotency-key': key });
    expect(expectError(changed, 422, 'idempotency_key_reused').type).toBe('invalid_request_error');
  });

  it('scopes keys to the wallet: another wallet with the same key sends its own message', async () => {
    const a = await createMerchant(t);
    const b = await createMerchant(t);
    const key = randomUUID();
    const fromA = await send(t, a.testKey, {}, { 'idempotency-key': key });
    const fromB = await send(t, b.testKey, {}, { 'idempotency-key': key });
    expect(fromB.status).toBe(200);
    expect(fromB.body.id).not.toBe(fromA.body.id);
    expect(fromB.headers.get('idempotent-replayed')).toBeNull();
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['not printable', 'tab\there'],
  ])('refuses a %s key with 400 invalid_idempotency_key', async (_name, key) => {
    const m = await createMerchant(t);
    expectError(await send(t, m.testKey, {}, { 'idempotency-key': key }), 400, 'invalid_idempotency_key');
    expect(await smsLeft(t, m.testKey)).toBe(100);
  });

  it('does not record validation errors: the key still works for a valid body', async () => {
    const m = await createMerchant(t);
    const key = randomUUID();
    expectError(
      await send(t, m.testKey, { to: 'nope' }, { 'idempotency-key': key }),
      400,
      'invalid_phone_number',
    );
    const ok = await send(t, m.testKey, {}, { 'idempotency-key': key });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('idempotent-replayed')).toBeNull();
  });

  it('records a 402 and replays it', async () => {
    const m = await createMerchant(t);
    await t.app.get(WalletService).reserve(m.wallets.TEST, 'msg_drainIdempotency0001', 100);
    const key = randomUUID();
    expectError(await send(t, m.testKey, {}, { 'idempotency-key': key }), 402, 'insufficient_credit');
    await t.app.get(WalletService).release(m.wallets.TEST, 'msg_drainIdempotency0001', 'test');
    const replay = await send(t, m.testKey, {}, { 'idempotency-key': key });
    expectError(replay, 402, 'insufficient_credit');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await smsLeft(t, m.testKey)).toBe(100);
  });

  it('30 concurrent requests with one key make exactly one message and one reservation', async () => {
    const m = await createMerchant(t);
    const key = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 30 }, () => send(t, m.testKey, {}, { 'idempotency-key': key })),
    );
    const ok = responses.filter((r) => r.status === 200);
    for (const r of responses.filter((r) => r.status !== 200))
      expectError(r, 409, 'idempotency_request_in_progress');
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((r) => r.body.id)).size).toBe(1);
    expect(ok.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    const reservations = (await walletEvents(m.testKey)).filter((e) => e.type === 'CreditsReserved');
    expect(reservations).toHaveLength(1);
    expect(reservations[0].data.messageId).toBe(ok[0].body.id);
    const list = await t.request('GET', '/v1/messages', { key: m.testKey });
    expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([ok[0].body.id]);
  });

  describe('a retry after send_at has passed (issue 28, item 8)', () => {
    /** Resolves once the clock is past the time (checked, not slept through blindly). */
    const past = (iso: string) =>
      eventually(async () => (Date.now() > Date.parse(iso) + 50 ? true : undefined), 30_000, `past ${iso}`);

    it('gets the recorded message, not 400 invalid_send_at, and reserves nothing more', async () => {
      const m = await createMerchant(t);
      const key = randomUUID();
      const sendAt = new Date(Date.now() + 1500).toISOString();
      const first = await send(t, m.testKey, { send_at: sendAt }, { 'idempotency-key': key });
      expect(first.body).toMatchObject({ status: 'SCHEDULED', send_at: sendAt });
      await past(sendAt);

      const retry = await send(t, m.testKey, { send_at: sendAt }, { 'idempotency-key': key });
      expect({
        status: retry.status,
        id: retry.body.id,
        replayed: retry.headers.get('idempotent-replayed'),
      }).toEqual({ status: 200, id: first.body.id, replayed: 'true' });
      expect((await walletEvents(m.testKey)).filter((e) => e.type === 'CreditsReserved')).toHaveLength(1);

      // Without the key, or under a new one, the past send_at is refused as before.
      expectError(await send(t, m.testKey, { send_at: sendAt }), 400, 'invalid_send_at');
      expectError(
        await send(t, m.testKey, { send_at: sendAt }, { 'idempotency-key': randomUUID() }),
        400,
        'invalid_send_at',
      );
      // Another body under the key: its own validation first, as before, then the 422.
      expectError(
        await send(t, m.testKey, { send_at: sendAt, message: 'Changed' }, { 'idempotency-key': key }),
        400,
        'invalid_send_at',
      );
    });

    it('gets the recorded batch answer for a batch', async () => {
      const m = await createMerchant(t);
      const key = randomUUID();
      const sendAt = new Date(Date.now() + 1500).toISOString();
      const body = {
        sender_id: 'MyShop',
        type: 'transactional',
        message: 'Scheduled batch',
        send_at: sendAt,
        messages: [{ to: '+233200000001' }, { to: 'nope' }],
      };
      const batch = () =>
        t.request('POST', '/v1/messages/batch', {
          key: m.testKey,
          body,
          headers: { 'idempotency-key': key },
        });
      const first = await batch();
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ accepted: 1, refused: 1 });
      await past(sendAt);

      const retry = await batch();
      expect({
        status: retry.status,
        id: retry.body.id,
        replayed: retry.headers.get('idempotent-replayed'),
      }).toEqual({ status: 200, id: first.body.id, replayed: 'true' });
      expect(retry.body.data[0].message.id).toBe(first.body.data[0].message.id);
      expect((await walletEvents(m.testKey)).filter((e) => e.type === 'CreditsReserved')).toHaveLength(1);
    });
  });
});
