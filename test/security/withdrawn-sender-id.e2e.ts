import { senderIdsReject } from '../../src/cli/commands/compliance.commands';
import { SmscSimulator } from '../../src/messaging/adapters/smpp/smsc-simulator';
import { createLiveMerchant, Merchant } from '../support/merchant';
import { finalState, send, smsLeft } from '../support/messaging';
import { eventually, startTestApp, TestApp } from '../support/test-app';
import { settledIn } from '../support/wallet-settlements';

/**
 * Issue 28, item 4: an approval withdrawn (`sender-ids:reject`) after a LIVE message was
 * scheduled with it. At its send_at the message is not sent: it ends FAILED with
 * sender_id_not_approved and its credits are released once. TEST messages take any sender ID, as
 * before, and another approved sender ID's message still goes. LIVE over real SMPP.
 */
const SLOW = 60_000;
jest.setTimeout(180_000);

const mtnNumber = () => `+23324${String(1_000_000 + Math.floor(Math.random() * 8_999_999))}`;
/** Far enough ahead that the withdrawal lands first, also on a slow, busy machine. */
const soon = () => new Date(Date.now() + 5000).toISOString();

describe('a sender ID withdrawn after a LIVE message was scheduled with it', () => {
  let mtn: SmscSimulator;
  let t: TestApp;

  beforeAll(async () => {
    mtn = await new SmscSimulator({ receiptDelayMs: 20 }).listen();
    t = await startTestApp({ env: { CARRIER_MTN_URL: mtn.url(), TEST_DLR_DELAY_MS: '20' } });
    await eventually(async () => (mtn.boundSessionCount === 1 ? true : undefined), SLOW, 'the MTN bind');
  });

  afterAll(async () => {
    await t?.close();
    await mtn?.close();
  });

  const liveMerchant = (): Promise<Merchant> =>
    createLiveMerchant(t, { approvedSenderIds: ['MyShop', 'OtherName'] });

  const walletEvents = async (key: string) =>
    (await t.request('GET', '/v1/wallet/events?limit=1000', { key })).body.data as {
      type: string;
      data: { messageId?: string };
    }[];

  it('ends FAILED with sender_id_not_approved at its send_at, never reaches the SMSC, and its credit comes back once', async () => {
    const m = await liveMerchant();
    const [withdrawnTo, otherTo] = [mtnNumber(), mtnNumber()];
    const sendAt = soon();
    const withdrawn = await send(t, m.liveKey, { to: withdrawnTo, sender_id: 'MyShop', send_at: sendAt });
    const other = await send(t, m.liveKey, { to: otherTo, sender_id: 'OtherName', send_at: sendAt });
    expect([withdrawn.body.status, other.body.status]).toEqual(['SCHEDULED', 'SCHEDULED']);
    const testSend = await send(t, m.testKey, { to: '+233200000001', sender_id: 'MyShop', send_at: sendAt });
    expect(testSend.body.status).toBe('SCHEDULED');
    expect(await smsLeft(t, m.liveKey)).toBe(8);

    await senderIdsReject.run(t.app, { email: m.email, 'sender-id': 'MyShop', reason: 'Brand withdrawn' });

    expect(await finalState(t, m.liveKey, withdrawn.body.id, SLOW)).toMatchObject({
      status: 'FAILED',
      dlr: { status: 'FAILED', error_code: 'sender_id_not_approved' },
    });
    expect(mtn.submissionsTo(withdrawnTo)).toHaveLength(0);

    // The other sender ID's message and the TEST one (any sender ID) go out as before.
    expect((await finalState(t, m.liveKey, other.body.id, SLOW)).status).toBe('DELIVERED');
    expect(mtn.submissionsTo(otherTo).map((s) => [s.status, s.sourceAddr])).toEqual([
      ['ESME_ROK', 'OtherName'],
    ]);
    expect((await finalState(t, m.testKey, testSend.body.id, SLOW)).status).toBe('DELIVERED');

    // 10 granted, 1 captured by the delivered one, the withdrawn one's released exactly once.
    await eventually(
      async () => ((await smsLeft(t, m.liveKey)) === 9 ? true : undefined),
      SLOW,
      'sms_left 9',
    );
    const releases = settledIn(await walletEvents(m.liveKey)).released.filter(
      (id) => id === withdrawn.body.id,
    );
    expect(releases).toHaveLength(1);
  });
});
