import { EVENT_STORE, EventStore } from '../../src/shared/event-store/event-store.port';
import { checkoutStream } from '../../src/billing/domain/checkout.events';
import { createMerchant } from '../support/merchant';
import {
  openPage,
  pathOf,
  purchaseCredits,
  smsLeft,
  startCheckout,
  submitForm,
} from '../support/hosted-checkout';
import { eventually, startTestApp, TestApp } from '../support/test-app';

describe('Billing: checkout expiry', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { CHECKOUT_TTL_MS: '300', RATE_LIMIT_PER_ADDRESS_BURST: '1000' } });
  });
  afterAll(() => t.close());

  it('an unpaid checkout expires after its TTL: status expired, recorded by the sweep, and the page refuses to pay', async () => {
    const m = await createMerchant(t);
    const c = await startCheckout(t, m.testKey, {
      package_id: 'pkg_starter',
      success_url: 'https://shop.example/paid',
    });
    expect(Date.parse(c.expires_at)).toBeGreaterThan(Date.now() - 60_000);

    await eventually(
      async () => {
        const read = await t.request('GET', `/v1/billing/checkout/${c.id}`, { key: m.testKey });
        return read.body.status === 'expired' ? read : undefined;
      },
      20_000,
      'status expired',
    );

    // The sweep makes it part of the record.
    const events = t.app.get<EventStore>(EVENT_STORE);
    await eventually(
      async () => {
        const stream = await events.readStream(checkoutStream(c.id));
        return stream.some((e) => e.type === 'CheckoutExpired') ? true : undefined;
      },
      20_000,
      'CheckoutExpired recorded',
    );

    const page = await openPage(t, pathOf(c.checkout_url));
    expect(page.status).toBe(200);
    expect(page.html).toContain('expired');
    expect(page.html).not.toContain(`/checkout/${c.id}/pay`);

    const pay = await submitForm(t, `/checkout/${c.id}/pay`);
    expect(pay.status).toBe(410);
    expect(pay.location).toBeNull();
    expect(pay.html).toContain('expired');
    const decline = await submitForm(t, `/checkout/${c.id}/decline`);
    expect(decline.status).toBe(410);

    const read = await t.request('GET', `/v1/billing/checkout/${c.id}`, { key: m.testKey });
    expect(read.body).toMatchObject({ status: 'expired', sms: 0 });
    expect(await smsLeft(t, m.testKey)).toBe(100);
    expect(await purchaseCredits(t, m.testKey, c.id)).toEqual([]);
  });
});
