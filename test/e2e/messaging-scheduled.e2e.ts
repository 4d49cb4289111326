import { EVENT_STORE, EventStore } from '../../src/shared/event-store/event-store.port';
import { createMerchant, Merchant } from '../support/merchant';
import { finalState, SANDBOX, send, sendBody, settledSmsLeft, smsLeft } from '../support/messaging';
import { eventually, expectError, startTestApp, TestApp } from '../support/test-app';
import { settledIn } from '../support/wallet-settlements';

/**
 * Issue 18, scheduled sends over HTTP: `send_at` accepts a message as SCHEDULED with its credits
 * reserved, the dispatcher sends it at its time, and `POST /v1/messages/:id/cancel` ends a
 * SCHEDULED one as CANCELED with its credits back, exactly once even against the dispatcher.
 */
jest.setTimeout(120_000);

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
const sleepUntil = (iso: string) =>
  new Promise((resolve) => setTimeout(resolve, Date.parse(iso) - Date.now()));

let t: TestApp;
let m: Merchant;

beforeAll(async () => {
  t = await startTestApp({ env: { TEST_DLR_DELAY_MS: '50', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  m = await createMerchant(t);
});

afterAll(async () => {
  await t?.close();
});

async function streamOf(id: string) {
  return t.app.get<EventStore>(EVENT_STORE).readStream(`message-${id}`);
}

const cancel = (id: string, key = m.testKey) => t.request('POST', `/v1/messages/${id}/cancel`, { key });

describe('send_at validation', () => {
  it.each([
    ['in the past', () => inMs(-60_000), 'send_at must be in the future'],
    ['now', () => new Date(Date.now() - 1).toISOString(), 'send_at must be in the future'],
    [
      'more than 30 days ahead',
      () => inMs(30 * 24 * 3600_000 + 60_000),
      'send_at must be at most 30 days ahead',
    ],
    ['without a time zone', () => inMs(3600_000).replace('Z', ''), 'RFC 3339'],
    ['a date alone', () => inMs(86_400_000).slice(0, 10), 'RFC 3339'],
    ['not a date', () => 'tomorrow morning', 'RFC 3339'],
  ])('refuses a send_at %s with 400 invalid_send_at, reserving nothing', async (_what, sendAt, message) => {
    const before = await smsLeft(t, m.testKey);
    const response = await send(t, m.testKey, { send_at: sendAt() });
    const error = expectError(response, 400, 'invalid_send_at');
    expect(error.param).toBe('send_at');
    expect(error.message).toContain(message);
    expect(await smsLeft(t, m.testKey)).toBe(before);
  });

  it('refuses a send_at that is not a string with 400 parameter_invalid', async () => {
    const response = await send(t, m.testKey, { send_at: 1795000000 });
    expect(expectError(response, 400, 'parameter_invalid').param).toBe('send_at');
  });

  it('quotes a scheduled send like a send, and refuses a bad send_at the same way', async () => {
    const quote = (sendAt: string) =>
      t.request('POST', '/v1/messages/quote', { key: m.testKey, body: sendBody({ send_at: sendAt }) });
    expect((await quote(inMs(3600_000))).status).toBe(200);
    const bad = await quote('soon');
    expect(expectError(bad, 400, 'invalid_send_at').param).toBe('send_at');
  });
});

describe('a scheduled send', () => {
  it('is SCHEDULED with its credits reserved, then sent at send_at on the simulated clock, valid from send_at', async () => {
    const sendAt = inMs(3000);
    const before = await smsLeft(t, m.testKey);
    const response = await send(t, m.testKey, { to: SANDBOX.failed, send_at: sendAt });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'SCHEDULED', send_at: sendAt, credits: 1, dlr: null });
    const id = response.body.id as string;
    expect(await smsLeft(t, m.testKey)).toBe(before - 1);
    const read = await t.request('GET', `/v1/messages/${id}`, { key: m.testKey });
    expect(read.body).toMatchObject({ id, status: 'SCHEDULED', send_at: sendAt });

    const [first] = await streamOf(id);
    expect(first.type).toBe('MessageScheduled');
    // TEST validity (10 minutes) counts from send_at, not from the accept.
    expect((first.data as { validUntil: string }).validUntil).toBe(
      new Date(Date.parse(sendAt) + 10 * 60_000).toISOString(),
    );

    // The sandbox's undeliverable number fails as it would now, only from send_at on.
    const final = await finalState(t, m.testKey, id, 60_000);
    expect(final).toMatchObject({ status: 'FAILED', send_at: sendAt, dlr: { error_code: 'undeliverable' } });
    const events = await streamOf(id);
    expect(events.map((e) => e.type)).toEqual([
      'MessageScheduled',
      'MessageDue',
      'MessageSent',
      'MessageFailed',
    ]);
    const dueAt = (events[1].data as { at: string }).at;
    expect(Date.parse(dueAt)).toBeGreaterThanOrEqual(Date.parse(sendAt));
    expect(Date.parse(final.dlr.reported_at)).toBeGreaterThanOrEqual(Date.parse(sendAt));
    await settledSmsLeft(t, m, before, 30_000); // FAILED releases
  });

  it('lists with its status and send_at', async () => {
    const sendAt = inMs(3600_000);
    const { body } = await send(t, m.testKey, { send_at: sendAt });
    const list = await eventually(async () => {
      const r = await t.request('GET', '/v1/messages?limit=5', { key: m.testKey });
      return r.body.data.find((x: { id: string }) => x.id === body.id);
    });
    expect(list).toMatchObject({ status: 'SCHEDULED', send_at: sendAt });
    expect((await cancel(body.id)).status).toBe(200);
  });
});

describe('a scheduled batch', () => {
  it('schedules every item for its send_at with the credits reserved at once; each is sent then or canceled alone', async () => {
    const before = await smsLeft(t, m.testKey);
    const sendAt = inMs(3000);
    const batch = await t.request('POST', '/v1/messages/batch', {
      key: m.testKey,
      body: {
        sender_id: 'MyShop',
        type: 'promotional',
        message: 'Sale at nine',
        send_at: sendAt,
        messages: [{ to: SANDBOX.delivered }, { to: SANDBOX.delivered }, { to: 'x' }],
      },
    });
    expect(batch.status).toBe(200);
    expect(batch.body).toMatchObject({ accepted: 2, refused: 1 });
    const [kept, canceledOne] = batch.body.data as { id: string; status: string; send_at: string }[];
    for (const item of [kept, canceledOne])
      expect(item).toMatchObject({ status: 'SCHEDULED', send_at: sendAt });
    expect(await smsLeft(t, m.testKey)).toBe(before - 2);
    expect((await streamOf(kept.id))[0].type).toBe('MessageScheduled');

    expect((await cancel(canceledOne.id)).body.status).toBe('CANCELED');
    expect(await smsLeft(t, m.testKey)).toBe(before - 1);
    expect(await finalState(t, m.testKey, kept.id, 60_000)).toMatchObject({
      status: 'DELIVERED',
      send_at: sendAt,
    });
    expect((await t.request('GET', `/v1/messages/${canceledOne.id}`, { key: m.testKey })).body.status).toBe(
      'CANCELED',
    );

    // A bad send_at refuses the whole batch, and reserves nothing.
    const refused = await t.request('POST', '/v1/messages/batch', {
      key: m.testKey,
      body: {
        sender_id: 'MyShop',
        type: 'promotional',
        message: 'x',
        send_at: inMs(-1000),
        messages: [{ to: SANDBOX.delivered }],
      },
    });
    expect(expectError(refused, 400, 'invalid_send_at').param).toBe('send_at');
    expect(await smsLeft(t, m.testKey)).toBe(before - 1);
  });
});

describe('POST /v1/messages/:id/cancel', () => {
  it('cancels a SCHEDULED message: 200 CANCELED, credits back once, and it is never sent', async () => {
    const before = await smsLeft(t, m.testKey);
    const sendAt = inMs(4000);
    const { body } = await send(t, m.testKey, { send_at: sendAt });
    expect(await smsLeft(t, m.testKey)).toBe(before - 1);

    const canceled = await cancel(body.id);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({
      id: body.id,
      object: 'message',
      status: 'CANCELED',
      send_at: sendAt,
    });
    // The answer's state is what the next reads show, credits included.
    expect(await smsLeft(t, m.testKey)).toBe(before);
    expect((await t.request('GET', `/v1/messages/${body.id}`, { key: m.testKey })).body.status).toBe(
      'CANCELED',
    );

    // A second cancel is 409 like any other state that is not SCHEDULED.
    expectError(await cancel(body.id), 409, 'message_not_cancelable');

    await sleepUntil(new Date(Date.parse(sendAt) + 1500).toISOString()); // past its time: still not sent
    expect((await t.request('GET', `/v1/messages/${body.id}`, { key: m.testKey })).body.status).toBe(
      'CANCELED',
    );
    expect((await streamOf(body.id)).map((e) => e.type)).toEqual(['MessageScheduled', 'MessageCanceled']);
    const wallet = (await t.request('GET', '/v1/wallet/events?limit=1000', { key: m.testKey })).body.data as {
      type: string;
      data: { messageId?: string };
    }[];
    expect(wallet.filter((e) => e.data.messageId === body.id).map((e) => e.type)).toEqual([
      'CreditsReserved',
      'ReservationReleased',
    ]);
  });

  it('refuses a QUEUED, SENT or final message with 409 message_not_cancelable', async () => {
    const queued = await send(t, m.testKey);
    expect(queued.body.status).toBe('QUEUED');
    const error = expectError(await cancel(queued.body.id), 409, 'message_not_cancelable');
    expect(error.message).toMatch(/only a SCHEDULED message can be canceled/);
    await finalState(t, m.testKey, queued.body.id);
    expectError(await cancel(queued.body.id), 409, 'message_not_cancelable');
  });

  it("answers 404 for an unknown id, another wallet's message and the other environment's key", async () => {
    const { body } = await send(t, m.testKey, { send_at: inMs(3600_000) });
    const other = await createMerchant(t);
    expectError(await cancel('msg_doesnotexist0000000000'), 404, 'resource_missing');
    expectError(await cancel('nope'), 404, 'resource_missing');
    expectError(await cancel(body.id, other.testKey), 404, 'resource_missing');
    expectError(await cancel(body.id, m.liveKey), 404, 'resource_missing');
    expect((await cancel(body.id)).status).toBe(200);
  });

  it('records webhook events message.scheduled and message.canceled', async () => {
    const hooked = await createMerchant(t);
    const endpoint = await t.request('POST', '/v1/webhook_endpoints', {
      key: hooked.testKey,
      body: { url: 'http://127.0.0.1:9/hooks', events: ['message.scheduled', 'message.canceled'] },
    });
    expect(endpoint.status).toBe(200);
    const { body } = await send(t, hooked.testKey, { send_at: inMs(3600_000) });
    expect((await cancel(body.id, hooked.testKey)).status).toBe(200);
    const events = await eventually(async () => {
      const r = await t.request('GET', '/v1/events?limit=10', { key: hooked.testKey });
      return r.body.data.length >= 2 ? r.body.data : undefined;
    });
    expect(
      events.map((e: { type: string; sequence: number; data: { id: string; status: string } }) => [
        e.type,
        e.sequence,
        e.data.id,
        e.data.status,
      ]),
    ).toEqual([
      ['message.scheduled', 1, body.id, 'SCHEDULED'],
      ['message.canceled', 2, body.id, 'CANCELED'],
    ]);
  });
});

describe('cancel against the dispatcher at the same instant', () => {
  it('exactly one of them wins for each message, and the credits add up', async () => {
    const racer = await createMerchant(t);
    const count = 30;
    const sendAt = inMs(8000);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const r = await send(t, racer.testKey, { send_at: sendAt });
      expect(r.status).toBe(200);
      ids.push(r.body.id);
    }
    expect(await smsLeft(t, racer.testKey)).toBe(100 - count);

    // The cancels leave around send_at, 20 ms apart, from 300 ms before to 280 ms after it: the
    // dispatcher's wake-up makes the same messages due at send_at, so the middle ones race it.
    const answers = await Promise.all(
      ids.map(async (id, i) => {
        await sleepUntil(new Date(Date.parse(sendAt) + (i - count / 2) * 20).toISOString());
        return cancel(id, racer.testKey);
      }),
    );
    for (const a of answers) {
      if (a.status !== 200) expectError(a, 409, 'message_not_cancelable');
    }
    const won = new Set(ids.filter((_id, i) => answers[i].status === 200));

    // Each message: CANCELED if its cancel won, else sent and DELIVERED; never both.
    const finals = await Promise.all(
      ids.map((id) =>
        eventually(
          async () => {
            const r = await t.request('GET', `/v1/messages/${id}`, { key: racer.testKey });
            return ['CANCELED', 'DELIVERED'].includes(r.body.status) ? r.body.status : undefined;
          },
          60_000,
          `${id} CANCELED or DELIVERED`,
        ),
      ),
    );
    expect(ids.filter((id, i) => (finals[i] === 'CANCELED') !== won.has(id))).toEqual([]);
    for (const id of ids) {
      const types = (await streamOf(id)).map((e) => e.type);
      const decided = types.filter((type) => type === 'MessageDue' || type === 'MessageCanceled');
      expect({ id, decided: decided.length, sent: types.includes('MessageSent') }).toEqual({
        id,
        decided: 1,
        sent: !won.has(id),
      });
    }

    // Credits: each canceled message released once, each delivered one captured once.
    await settledSmsLeft(t, racer, 100 - (count - won.size), 60_000);
    const wallet = (await t.request('GET', '/v1/wallet/events?limit=1000', { key: racer.testKey })).body
      .data as {
      type: string;
      data: { messageId?: string };
    }[];
    const settled = settledIn(wallet);
    expect(new Set(settled.released)).toEqual(won);
    expect(settled.released).toHaveLength(won.size);
    expect(settled.captured).toHaveLength(count - won.size);
  });
});

describe('a scheduled promotional message whose recipient opts out before its time', () => {
  it('is not sent: FAILED with recipient_opted_out and its credit back, while a transactional one still goes', async () => {
    const before = await smsLeft(t, m.testKey);
    const sendAt = inMs(3000);
    const promotional = await send(t, m.testKey, {
      to: SANDBOX.delivered,
      type: 'promotional',
      send_at: sendAt,
    });
    const transactional = await send(t, m.testKey, { to: SANDBOX.delivered, send_at: sendAt });
    expect([promotional.body.status, transactional.body.status]).toEqual(['SCHEDULED', 'SCHEDULED']);

    const phone = encodeURIComponent(SANDBOX.delivered);
    const optedOut = await t.request('POST', '/v1/opt_outs', {
      key: m.testKey,
      body: { phone_number: SANDBOX.delivered },
    });
    expect(optedOut.status).toBeLessThan(300);
    try {
      expect(await finalState(t, m.testKey, promotional.body.id, 60_000)).toMatchObject({
        status: 'FAILED',
        dlr: { error_code: 'recipient_opted_out' },
      });
      expect(await finalState(t, m.testKey, transactional.body.id, 60_000)).toMatchObject({
        status: 'DELIVERED',
      });
      expect((await streamOf(promotional.body.id)).map((e) => e.type)).toEqual([
        'MessageScheduled',
        'MessageDue',
        'MessageFailed',
      ]);
      await settledSmsLeft(t, m, before - 1, 30_000); // the failed one's credit released
    } finally {
      await t.request('DELETE', `/v1/opt_outs/${phone}`, { key: m.testKey });
    }
  });
});
