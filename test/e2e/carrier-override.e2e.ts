import { CARRIER_ROUTES } from '../../src/messaging/ports/carrier.port';
import { WalletService } from '../../src/wallet/application/wallet.service';
import { createMerchant } from '../support/merchant';
import { finalState, send, smsLeft } from '../support/messaging';
import { RecordingCarrier, routesTo } from '../support/recording-carrier';
import { eventually, startTestApp, TestApp } from '../support/test-app';

describe('Swapping the MTN carrier for a recording fake (overrideProvider(CARRIER_ROUTES))', () => {
  const mtn = new RecordingCarrier('MTN');
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ override: (b) => b.overrideProvider(CARRIER_ROUTES).useValue(routesTo(mtn)) });
  });
  afterAll(() => t.close());

  async function sentThrough(key: string, id: string) {
    await eventually(async () => (mtn.received.some((m) => m.messageId === id) ? true : undefined));
    await eventually(async () => {
      const r = await t.request('GET', `/v1/messages/${id}`, { key });
      return r.body.status === 'SENT' ? true : undefined;
    });
  }

  it('TEST: the fake gets the message as the service computed it and settles it by receipt', async () => {
    const m = await createMerchant(t);
    const sent = await send(t, m.testKey, { to: '+233241234567', message: 'Hello MTN' });
    expect(sent.status).toBe(200);
    await sentThrough(m.testKey, sent.body.id);

    expect(mtn.received.find((r) => r.messageId === sent.body.id)).toMatchObject({
      to: '+233241234567',
      senderId: 'MyShop',
      body: 'Hello MTN',
      encoding: 'GSM-7',
      segments: 1,
      environment: 'TEST',
    });
    await mtn.report(sent.body.id, 'DELIVERED');
    expect(await finalState(t, m.testKey, sent.body.id)).toMatchObject({
      status: 'DELIVERED',
      dlr: { status: 'DELIVERED', carrier_status: 'DELIVRD' },
    });
    await eventually(async () => ((await smsLeft(t, m.testKey)) === 99 ? true : undefined));
  });

  it('LIVE: a two-part UCS-2 message reaches the same fake', async () => {
    const m = await createMerchant(t);
    await t.app.get(WalletService).addCredits(m.wallets.LIVE, {
      sourceId: `grant-${m.accountId}`,
      source: 'operator_grant',
      sms: 5,
      reason: 'test',
    });
    const body = 'Ɛte sɛn? '.repeat(10);
    const sent = await send(t, m.liveKey, { to: '+233541234567', message: body });
    expect(sent.status).toBe(200);
    await sentThrough(m.liveKey, sent.body.id);

    expect(mtn.received.find((r) => r.messageId === sent.body.id)).toMatchObject({
      to: '+233541234567',
      body,
      encoding: 'UCS-2',
      segments: 2,
      environment: 'LIVE',
    });
    await mtn.report(sent.body.id);
    expect((await finalState(t, m.liveKey, sent.body.id)).status).toBe('DELIVERED');
    await eventually(async () => ((await smsLeft(t, m.liveKey)) === 3 ? true : undefined));
  });
});
