import {
  inboundUnassigned,
  numbersAssign,
  numbersList,
  senderIdsApprove,
  senderIdsList,
  senderIdsReject,
} from '../../src/cli/commands/compliance.commands';
import { SmscSimulator } from '../../src/messaging/adapters/smpp/smsc-simulator';
import { createLiveMerchant, createMerchant, Merchant } from '../support/merchant';
import { send, sendBody, smsLeft } from '../support/messaging';
import { eventually, expectError, startTestApp, TestApp } from '../support/test-app';
import { verifyWebhook } from '../support/verify-webhook';
import { startWebhookReceiver, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Compliance end to end over HTTP (API.md, Compliance): LIVE sender IDs the operator approves,
 * inbound messages through the SMSC simulator and the sandbox, and opt-out lists.
 */
const SLOW = 60_000;
jest.setTimeout(120_000);

const mtnNumber = () => `+23324${String(1_000_000 + Math.floor(Math.random() * 8_999_999))}`;
const longNumber = () => `+23350${String(1_000_000 + Math.floor(Math.random() * 8_999_999))}`;

describe('Compliance: sender IDs, inbound messages, opt-outs', () => {
  let mtn: SmscSimulator;
  let t: TestApp;
  let hooks: WebhookReceiver;

  beforeAll(async () => {
    mtn = await new SmscSimulator({ receiptDelayMs: 50 }).listen();
    hooks = await startWebhookReceiver();
    t = await startTestApp({
      env: { CARRIER_MTN_URL: mtn.url(), TEST_DLR_DELAY_MS: '30', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' },
    });
    await eventually(async () => (mtn.boundSessionCount === 1 ? true : undefined), SLOW, 'the MTN bind');
  });

  afterAll(async () => {
    await t?.close();
    await mtn?.close();
    await hooks?.close();
  });

  const liveMerchant = (options: { approvedSenderIds?: string[] } = {}): Promise<Merchant> =>
    createLiveMerchant(t, options);

  const list = async (path: string, key: string) => {
    const response = await t.request('GET', path, { key });
    expect(response.status).toBe(200);
    return response.body as { object: string; data: Record<string, unknown>[]; has_more: boolean };
  };

  const optedOut = async (key: string) => (await list('/v1/opt_outs', key)).data.map((o) => o.phone_number);

  describe('sender IDs', () => {
    it('refuses a LIVE send with an unapproved sender ID, reserving nothing, until the operator approves it', async () => {
      const m = await liveMerchant({ approvedSenderIds: [] });
      const refused = await send(t, m.liveKey, { sender_id: 'Acme Ltd', to: mtnNumber() });
      expectError(refused, 422, 'sender_id_not_approved');
      expect(refused.body.error.param).toBe('sender_id');
      const batch = await t.request('POST', '/v1/messages/batch', {
        key: m.liveKey,
        body: {
          sender_id: 'Acme Ltd',
          type: 'transactional',
          message: 'Hi',
          messages: [{ to: mtnNumber() }],
        },
      });
      expectError(batch, 422, 'sender_id_not_approved');
      expect(await smsLeft(t, m.liveKey)).toBe(10);
      const walletEvents = await t.request('GET', '/v1/wallet/events?limit=100', { key: m.liveKey });
      expect(walletEvents.body.data.map((e: { type: string }) => e.type)).not.toContain('CreditsReserved');

      // TEST takes any valid sender ID, as before.
      expect((await send(t, m.testKey, { sender_id: 'Acme Ltd', to: '+233200000001' })).status).toBe(200);

      const requested = await t.request('POST', '/v1/sender_ids', {
        key: m.liveKey,
        body: { sender_id: 'Acme Ltd', sample_message: 'Your Acme order has shipped' },
      });
      expect(requested.status).toBe(200);
      expect(requested.body).toMatchObject({
        object: 'sender_id',
        sender_id: 'Acme Ltd',
        status: 'pending',
        reason: null,
      });
      expectError(
        await t.request('POST', '/v1/sender_ids', {
          key: m.testKey,
          body: { sender_id: 'Acme Ltd', sample_message: 'Again' },
        }),
        409,
        'sender_id_exists',
      );
      expectError(
        await t.request('POST', '/v1/sender_ids', {
          key: m.testKey,
          body: { sender_id: 'x', sample_message: 'Hi' },
        }),
        400,
        'invalid_sender_id',
      );
      expectError(
        await send(t, m.liveKey, { sender_id: 'Acme Ltd', to: mtnNumber() }),
        422,
        'sender_id_not_approved',
      );

      const pending = await senderIdsList.run(t.app, { status: 'pending' });
      expect((pending.output as { sender_ids: object[] }).sender_ids).toContainEqual(
        expect.objectContaining({ sender_id: 'Acme Ltd', status: 'pending', email: m.email }),
      );
      const approved = await senderIdsApprove.run(t.app, { email: m.email, 'sender-id': 'Acme Ltd' });
      expect(approved.output).toMatchObject({ approved: { sender_id: 'Acme Ltd', status: 'approved' } });

      const sent = await send(t, m.liveKey, { sender_id: 'Acme Ltd', to: mtnNumber() });
      expect(sent.status).toBe(200);
      expect(sent.body).toMatchObject({ environment: 'LIVE', sender_id: 'Acme Ltd' });
      expect((await list('/v1/sender_ids', m.liveKey)).data).toEqual([
        expect.objectContaining({ sender_id: 'Acme Ltd', status: 'approved', reason: null }),
      ]);
    });

    it('shows a rejection and its reason to the merchant', async () => {
      const m = await createMerchant(t, undefined, { approvedSenderIds: [] });
      await t.request('POST', '/v1/sender_ids', {
        key: m.testKey,
        body: { sender_id: 'BigBank', sample_message: 'Hi' },
      });
      const rejected = await senderIdsReject.run(t.app, {
        email: m.email,
        'sender-id': 'BigBank',
        reason: 'Not your brand',
      });
      expect(rejected.output).toMatchObject({ rejected: { status: 'rejected', reason: 'Not your brand' } });
      expect((await list('/v1/sender_ids', m.testKey)).data).toEqual([
        expect.objectContaining({ sender_id: 'BigBank', status: 'rejected', reason: 'Not your brand' }),
      ]);
    });
  });

  describe('inbound messages and opt-outs over SMPP', () => {
    it('an inbound STOP blocks the next promotional send to that number, not a transactional one; START lifts it', async () => {
      const m = await liveMerchant();
      const ours = longNumber();
      await numbersAssign.run(t.app, { number: ours, email: m.email });
      const phone = mtnNumber();

      expect(await mtn.sendInbound({ from: phone, to: ours, message: ' stop ' })).toBe('ESME_ROK');
      await eventually(
        async () => ((await optedOut(m.liveKey)).includes(phone) ? true : undefined),
        SLOW,
        'the opt-out',
      );
      expect((await list('/v1/opt_outs', m.liveKey)).data[0]).toMatchObject({
        object: 'opt_out',
        phone_number: phone,
        source: 'inbound',
      });
      expect(await optedOut(m.testKey)).not.toContain(phone); // the TEST list is another list

      const refused = await send(t, m.liveKey, { to: phone, type: 'promotional' });
      expectError(refused, 422, 'recipient_opted_out');
      expect(refused.body.error.param).toBe('to');
      expect((await send(t, m.liveKey, { to: phone, type: 'transactional' })).status).toBe(200);
      const batch = await t.request('POST', '/v1/messages/batch', {
        key: m.liveKey,
        body: {
          sender_id: 'MyShop',
          type: 'promotional',
          message: 'Sale!',
          messages: [{ to: mtnNumber() }, { to: phone }],
        },
      });
      expect(batch.status).toBe(200);
      expect(batch.body).toMatchObject({ accepted: 1, refused: 1 });
      expect(batch.body.data[1].error).toMatchObject({
        code: 'recipient_opted_out',
        param: 'messages[1].to',
      });

      const inbound = await list('/v1/inbound_messages', m.liveKey);
      expect(inbound.data[0]).toMatchObject({
        object: 'inbound_message',
        from: phone,
        to: ours,
        message: ' stop ',
        environment: 'LIVE',
      });

      expect(await mtn.sendInbound({ from: phone, to: ours, message: 'START' })).toBe('ESME_ROK');
      await eventually(
        async () => (!(await optedOut(m.liveKey)).includes(phone) ? true : undefined),
        SLOW,
        'START',
      );
      expect((await send(t, m.liveKey, { to: phone, type: 'promotional' })).status).toBe(200);
    });

    it('keeps an unassigned number’s messages for the operator', async () => {
      const nobodys = longNumber();
      expect(await mtn.sendInbound({ from: mtnNumber(), to: nobodys, message: 'Hello?' })).toBe('ESME_ROK');
      await eventually(
        async () => {
          const { output } = await inboundUnassigned.run(t.app, {});
          const messages = (output as { inbound_messages: { to: string }[] }).inbound_messages;
          return messages.some((x) => x.to === nobodys) ? true : undefined;
        },
        SLOW,
        'the unassigned message',
      );
    });
  });

  describe('inbound messages reach their own account only', () => {
    it('lists and signs message.received for the account the number is assigned to, and no other', async () => {
      const a = await createMerchant(t);
      const b = await createMerchant(t);
      const [numberA, numberB] = [longNumber(), longNumber()];
      await numbersAssign.run(t.app, { number: numberA, email: a.email });
      await numbersAssign.run(t.app, { number: numberB, email: b.email });
      const assigned = (await numbersList.run(t.app, {})).output as {
        numbers: { number: string; email: string }[];
      };
      expect(assigned.numbers).toContainEqual(expect.objectContaining({ number: numberA, email: a.email }));

      const url = hooks.url;
      const endpoints = await Promise.all(
        [a, b].map(async (m) => {
          const r = await t.request('POST', '/v1/webhook_endpoints', {
            key: m.testKey,
            body: { url, events: ['message.received'] },
          });
          expect(r.status).toBe(200);
          return r.body as { secret: string };
        }),
      );

      // Only a TEST key simulates, and only to the account's own numbers.
      expectError(
        await t.request('POST', '/v1/sandbox/inbound', {
          key: a.testKey,
          body: { from: '+233241234567', to: numberB, message: 'Hi' },
        }),
        400,
        'number_not_assigned',
      );
      expectError(
        await t.request('POST', '/v1/sandbox/inbound', {
          key: a.liveKey,
          body: { from: '+233241234567', to: numberA, message: 'Hi' },
        }),
        403,
        'test_key_required',
      );
      const phone = mtnNumber();
      const simulated = await t.request('POST', '/v1/sandbox/inbound', {
        key: a.testKey,
        body: { from: phone, to: numberA, message: 'Is my order ready?' },
      });
      expect(simulated.status).toBe(200);
      expect(simulated.body).toMatchObject({
        object: 'inbound_message',
        environment: 'TEST',
        from: phone,
        to: numberA,
      });
      expect(simulated.body.id).toMatch(/^in_/);

      expect((await list('/v1/inbound_messages', a.testKey)).data.map((x) => x.id)).toEqual([
        simulated.body.id,
      ]);
      expect((await list('/v1/inbound_messages', b.testKey)).data).toEqual([]);
      expect((await list('/v1/inbound_messages', a.liveKey)).data).toEqual([]);

      const delivery = await eventually(
        async () => hooks.received.find((r) => r.raw.includes(simulated.body.id)),
        SLOW,
        'the message.received webhook',
      );
      const event = JSON.parse(delivery.raw);
      expect(event).toMatchObject({
        type: 'message.received',
        sequence: 1,
        data: { id: simulated.body.id, message: 'Is my order ready?' },
      });
      expect(verifyWebhook(delivery.raw, delivery.signature, endpoints[0].secret)).toBe(true);
      expect(verifyWebhook(delivery.raw, delivery.signature, endpoints[1].secret)).toBe(false);
      expect(hooks.received.filter((r) => r.raw.includes(simulated.body.id))).toHaveLength(1);

      // A TEST STOP changes the TEST list only; the list is also kept by hand.
      await t.request('POST', '/v1/sandbox/inbound', {
        key: a.testKey,
        body: { from: phone, to: numberA, message: 'STOP ALL' },
      });
      await eventually(
        async () => ((await optedOut(a.testKey)).includes(phone) ? true : undefined),
        SLOW,
        'TEST opt-out',
      );
      expect(await optedOut(a.liveKey)).not.toContain(phone);
      expectError(await send(t, a.testKey, { to: phone, type: 'promotional' }), 422, 'recipient_opted_out');
    });

    it('manages the opt-out list by hand', async () => {
      const m = await createMerchant(t);
      const phone = '+233241112233';
      const added = await t.request('POST', '/v1/opt_outs', {
        key: m.testKey,
        body: { phone_number: phone },
      });
      expect(added.status).toBe(200);
      expect(added.body).toMatchObject({ object: 'opt_out', phone_number: phone, source: 'api' });
      expect(await optedOut(m.testKey)).toEqual([phone]);
      expectError(
        await send(t, m.testKey, sendBody({ to: phone, type: 'promotional' })),
        422,
        'recipient_opted_out',
      );
      expectError(
        await t.request('POST', '/v1/opt_outs', { key: m.testKey, body: { phone_number: '0241' } }),
        400,
        'invalid_phone_number',
      );

      const removed = await t.request('DELETE', `/v1/opt_outs/${encodeURIComponent(phone)}`, {
        key: m.testKey,
      });
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ object: 'opt_out', phone_number: phone, deleted: true });
      expect(await optedOut(m.testKey)).toEqual([]);
      expectError(
        await t.request('DELETE', `/v1/opt_outs/${encodeURIComponent(phone)}`, { key: m.testKey }),
        404,
        'resource_missing',
      );
      expect((await send(t, m.testKey, { to: phone, type: 'promotional' })).status).toBe(200);
    });
  });
});
