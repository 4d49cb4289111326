import { createHmac } from 'node:crypto';
import { FakePaystackServer } from '../../src/billing/adapters/paystack/fake-paystack-server.test-support';
import { checkoutStream } from '../../src/billing/domain/checkout.events';
import { EVENT_STORE, EventStore } from '../../src/shared/event-store/event-store.port';
import { createMerchant, Merchant } from '../support/merchant';
import { purchaseCredits, smsLeft, startCheckout, submitForm } from '../support/hosted-checkout';
import { eventually, startTestApp, TestApp } from '../support/test-app';

/**
 * A LIVE shopper charged but never credited (docs/security.md, "Attacks tried"): a checkout
 * closed (expired by the sweep, or declined on our page) while its Paystack transaction was
 * still open, then paid there. The payment is credited when it is exactly what was asked, or
 * refunded through Paystack, both recorded as events; never only logged. And the hosted pages,
 * which need no sign-in, cannot make us call Paystack with our key on every request.
 */

const SECRET = 'sk_test_late';
const TTL_MS = 1500;

describe('Late LIVE payments', () => {
  let fake: FakePaystackServer;
  let t: TestApp;

  beforeAll(async () => {
    fake = new FakePaystackServer({ secretKey: SECRET });
    await fake.start();
    t = await startTestApp({
      env: {
        PAYSTACK_SECRET_KEY: SECRET,
        PAYSTACK_BASE_URL: fake.baseUrl,
        CHECKOUT_TTL_MS: String(TTL_MS), // the sweep runs every TTL / 2
        PAYMENT_VERIFY_CACHE_MS: '60000', // longer than the test: every reuse shows
        RATE_LIMIT_PER_ADDRESS_RPS: '5000',
        RATE_LIMIT_PER_ADDRESS_BURST: '5000',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  const chargeSuccess = (reference: string) => {
    const body = JSON.stringify({
      event: 'charge.success',
      data: { reference, amount: 5000, currency: 'GHS', status: 'success' },
    });
    return fetch(`${t.baseUrl}/v1/billing/webhooks/paystack`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-paystack-signature': createHmac('sha512', SECRET).update(body).digest('hex'),
      },
      body,
    });
  };

  /** A LIVE checkout whose shopper the hosted page handed to Paystack. */
  async function handedToPaystack(m: Merchant) {
    const c = await startCheckout(t, m.liveKey, {
      package_id: 'pkg_starter',
      success_url: 'https://shop.example/paid',
      cancel_url: 'https://shop.example/cart',
    });
    const started = await submitForm(t, `/checkout/${c.id}/start`);
    expect(started.location).toMatch(/^https:\/\/checkout\.paystack\.com\//);
    return c;
  }

  const checkoutEvents = async (id: string) =>
    (await t.app.get<EventStore>(EVENT_STORE).readStream(checkoutStream(id))).map((e) => e.type);
  const checkoutStatus = async (m: Merchant, id: string) =>
    (await t.request('GET', `/v1/billing/checkout/${id}`, { key: m.liveKey })).body.status as string;
  const verifies = (id: string) => fake.requests.filter((r) => r.path === `/transaction/verify/${id}`).length;

  it('the sweep verifies before expiring: paid at Paystack with no webhook and no return, it is credited', async () => {
    const m = await createMerchant(t);
    const before = await smsLeft(t, m.liveKey);
    const c = await handedToPaystack(m); // the fake answers "success" from now on
    await eventually(
      async () => ((await checkoutStatus(m, c.id)) === 'succeeded' ? true : undefined),
      30_000,
      'the sweep to settle the payment',
    );
    expect(await checkoutEvents(c.id)).not.toContain('CheckoutExpired');
    expect(await purchaseCredits(t, m.liveKey, c.id)).toEqual([{ sms: 1000 }]);
    expect(await smsLeft(t, m.liveKey)).toBe(before + 1000);
  });

  it('expired while open at Paystack, then paid exactly: the late payment is credited, once', async () => {
    const m = await createMerchant(t);
    const before = await smsLeft(t, m.liveKey);
    fake.behaviour = 'verify-pending';
    const c = await handedToPaystack(m);
    await eventually(
      async () => ((await checkoutEvents(c.id)).includes('CheckoutExpired') ? true : undefined),
      30_000,
      'the sweep to expire the still-open checkout',
    );
    expect(verifies(c.id)).toBeGreaterThanOrEqual(1); // asked Paystack before expiring
    expect(await checkoutStatus(m, c.id)).toBe('expired');

    fake.behaviour = 'success'; // the shopper pays on Paystack's page after all
    expect((await chargeSuccess(c.id)).status).toBe(200);
    await eventually(
      async () => ((await checkoutStatus(m, c.id)) === 'succeeded' ? true : undefined),
      30_000,
      'the late payment credited',
    );
    await chargeSuccess(c.id); // Paystack retries its webhook: still once
    expect(await purchaseCredits(t, m.liveKey, c.id)).toEqual([{ sms: 1000 }]);
    expect(await smsLeft(t, m.liveKey)).toBe(before + 1000);
    expect(fake.refunds.has(c.id)).toBe(false);
  });

  it('declined on our page while open at Paystack, then paid there: refunded through Paystack and recorded', async () => {
    const m = await createMerchant(t);
    const before = await smsLeft(t, m.liveKey);
    fake.behaviour = 'verify-pending';
    const c = await handedToPaystack(m);
    const declined = await submitForm(t, `/checkout/${c.id}/decline`);
    expect(declined.location).toBe(`https://shop.example/cart?checkout_id=${c.id}`);
    expect(await checkoutStatus(m, c.id)).toBe('failed');

    fake.behaviour = 'success';
    expect((await chargeSuccess(c.id)).status).toBe(200);
    await eventually(
      async () => ((await checkoutEvents(c.id)).includes('PaymentRefunded') ? true : undefined),
      30_000,
      'the refund recorded',
    );
    expect(fake.refunds.get(c.id)).toMatchObject({ amount: 5000, currency: 'GHS' });
    const refundCalls = fake.requests.filter((r) => r.path === '/refund');
    expect(refundCalls).toHaveLength(1);
    expect(refundCalls[0].body).toMatchObject({ transaction: c.id });
    expect(refundCalls[0].authorization).toBe(`Bearer ${SECRET}`);

    await chargeSuccess(c.id); // a repeated webhook refunds nothing twice
    expect(await checkoutEvents(c.id)).toEqual([
      'CheckoutStarted',
      'PaymentStarted',
      'CheckoutFailed',
      'RefundRequested',
      'PaymentRefunded',
    ]);
    expect(fake.requests.filter((r) => r.path === '/refund')).toHaveLength(1);
    expect(await checkoutStatus(m, c.id)).toBe('failed');
    expect(await purchaseCredits(t, m.liveKey, c.id)).toEqual([]);
    expect(await smsLeft(t, m.liveKey)).toBe(before);
  });

  it('the return page reuses Paystack’s answer: 20 anonymous requests, one verification', async () => {
    const m = await createMerchant(t);
    fake.behaviour = 'verify-pending';
    const c = await handedToPaystack(m);
    for (let i = 0; i < 10; i++) {
      const page = await fetch(`${t.baseUrl}/checkout/${c.id}/return`, { redirect: 'manual' });
      expect(page.status).toBe(200);
      await page.text();
    }
    await Promise.all(
      Array.from({ length: 10 }, () =>
        fetch(`${t.baseUrl}/checkout/${c.id}/return`, { redirect: 'manual' }).then((r) => r.text()),
      ),
    );
    expect(verifies(c.id)).toBe(1);
  });
});
