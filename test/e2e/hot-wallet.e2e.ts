import { createMerchant } from '../support/merchant';
import { finalState, send, settledSmsLeft } from '../support/messaging';
import { eventually, startTestApp, TestApp } from '../support/test-app';
import { settledIn } from '../support/wallet-settlements';

describe('a hot wallet over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TEST_DLR_DELAY_MS: '20' } });
  });
  afterAll(() => t.close());

  it('400 concurrent sends on a 100-credit wallet: exactly 100 accepted, the rest 402, no conflicts, sms_left ends at 0', async () => {
    const m = await createMerchant(t);
    const responses = await Promise.all(
      Array.from({ length: 400 }, (_, i) => send(t, m.testKey, { message: `OTP ${i}` })),
    );
    const accepted = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 402);
    expect(accepted).toHaveLength(100);
    expect(refused).toHaveLength(300);
    expect(refused.every((r) => r.body.error.type === 'insufficient_credit')).toBe(true);
    expect(new Set(accepted.map((r) => r.body.id)).size).toBe(100);

    // Every accepted message is delivered and captured: nothing comes back to sms_left.
    for (const r of accepted.slice(0, 5))
      expect((await finalState(t, m.testKey, r.body.id)).status).toBe('DELIVERED');
    const walletEvents = async () =>
      (await t.request('GET', '/v1/wallet/events?limit=1000', { key: m.testKey })).body.data as {
        type: string;
        data: unknown;
      }[];
    await eventually(
      async () => (new Set(settledIn(await walletEvents()).captured).size === 100 ? true : undefined),
      60_000,
      'every capture',
    );
    const events = await walletEvents();
    expect(settledIn(events).captured).toHaveLength(100); // each once
    expect(events.filter((e) => e.type === 'CreditsReserved')).toHaveLength(100);
    await settledSmsLeft(t, m, 0);
  });
});
