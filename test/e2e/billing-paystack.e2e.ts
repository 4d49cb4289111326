import { createHmac } from 'node:crypto';
import { FakePaystackServer } from '../../src/billing/adapters/paystack/fake-paystack-server.test-support';
import { createMerchant, Merchant } from '../support/merchant';
import {
  openPage,
  pathOf,
  purchaseCredits,
  smsLeft,
  startCheckout,
  submitForm,
} from '../support/hosted-checkout';
import { eventually, expectError, startTestApp, TestApp } from '../support/test-app';

const SECRET = 'sk_test_x';
const sign = (body: string, secret = SECRET) => createHmac('sha512', secret).update(body).digest('hex');

describe('Billing: LIVE checkouts through Paystack', () => {
  let fake: FakePaystackServer;
  let t: TestApp;
  let merchant: Merchant;

  beforeAll(async () => {
    fake = new FakePaystackServer({ secretKey: SECRET });
    await fake.start();
    t = await startTestApp({
      env: {
        PAYSTACK_SECRET_KEY: SECRET,
        PAYSTACK_BASE_URL: fake.baseUrl,
        // These tests change Paystack's answer between page loads a moment apart; reusing an
        // answer for a few seconds is test/security/late-payments.e2e.ts's subject.
        PAYMENT_VERIFY_CACHE_MS: '0',
        RATE_LIMIT_PER_ADDRESS_RPS: '5000',
        RATE_LIMIT_PER_ADDRESS_BURST: '5000',
      },
    });
    merchant = await createMerchant(t);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  const webhook = (body: string, signature: string | null = sign(body)) =>
    fetch(`${t.baseUrl}/v1/billing/webhooks/paystack`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(signature === null ? {} : { 'x-paystack-signature': signature }),
      },
      body,
    });
  const chargeSuccess = (reference: string, amount = 5000) =>
    JSON.stringify({
      event: 'charge.success',
      data: { reference, amount, currency: 'GHS', status: 'success' },
    });

  /** Starts a LIVE checkout and has the hosted page hand the shopper to Paystack. */
  async function handedToPaystack(m: Merchant, body?: Record<string, unknown>) {
    const c = await startCheckout(
      t,
      m.liveKey,
      body ?? {
        package_id: 'pkg_starter',
        success_url: 'https://shop.example/paid?o=7',
        cancel_url: 'https://shop.example/cart',
      },
    );
    const page = await openPage(t, pathOf(c.checkout_url));
    expect(page.status).toBe(200);
    expect(page.html).toContain('GHS 50.00');
    expect(page.html).toContain(`action="/checkout/${c.id}/start"`);
    expect(page.html).not.toContain(`/checkout/${c.id}/pay"`);
    const started = await submitForm(t, `/checkout/${c.id}/start`);
    expect(started.status).toBe(303);
    expect(started.location).toMatch(/^https:\/\/checkout\.paystack\.com\//);
    return { c, authorizationUrl: started.location! };
  }

  it('initializes once with the merchant email and our return URL; a reload reuses the same Paystack page', async () => {
    const m = await createMerchant(t);
    const { c, authorizationUrl } = await handedToPaystack(m);
    const init = fake.requests.filter((r) => r.path === '/transaction/initialize');
    expect(init).toHaveLength(1);
    expect(init[0].authorization).toBe(`Bearer ${SECRET}`);
    expect(init[0].body).toMatchObject({
      email: m.email,
      amount: 5000,
      currency: 'GHS',
      reference: c.id,
      callback_url: `${t.config.publicUrl}/checkout/${c.id}/return`,
    });
    const again = await submitForm(t, `/checkout/${c.id}/start`);
    expect(again.location).toBe(authorizationUrl);
    expect(fake.requests.filter((r) => r.path === '/transaction/initialize')).toHaveLength(1);
  });

  it('credits exactly once when duplicated webhooks race the return redirect and its reloads', async () => {
    const m = await createMerchant(t);
    const { c } = await handedToPaystack(m);
    // Before the shopper paid, the return page says so and records nothing.
    fake.behaviour = 'verify-abandoned';
    const early = await openPage(t, `/checkout/${c.id}/return?trxref=${c.id}&reference=${c.id}`);
    expect(early.status).toBe(200);
    expect(early.html).toContain('not received confirmation');
    expect((await t.request('GET', `/v1/billing/checkout/${c.id}`, { key: m.liveKey })).body.status).toBe(
      'pending',
    );

    fake.behaviour = 'success';
    const body = chargeSuccess(c.id);
    const [hooks, returns] = await Promise.all([
      Promise.all(Array.from({ length: 5 }, () => webhook(body))),
      Promise.all(
        Array.from({ length: 5 }, () =>
          openPage(t, `/checkout/${c.id}/return?trxref=${c.id}&reference=${c.id}`),
        ),
      ),
    ]);
    for (const hook of hooks) expect(hook.status).toBe(200);
    for (const back of returns) {
      expect(back.status).toBe(303);
      expect(back.location).toBe(`https://shop.example/paid?o=7&checkout_id=${c.id}`);
    }
    expect((await t.request('GET', `/v1/billing/checkout/${c.id}`, { key: m.liveKey })).body).toMatchObject({
      status: 'succeeded',
      sms: 1000,
    });
    expect(await smsLeft(t, m.liveKey)).toBe(1000);
    expect(await purchaseCredits(t, m.liveKey, c.id)).toEqual([{ sms: 1000 }]);
    // Verified server to server, every time.
    expect(fake.requests.some((r) => r.path === `/transaction/verify/${c.id}`)).toBe(true);

    // Later retries of the webhook change nothing.
    expect((await webhook(body)).status).toBe(200);
    expect(await purchaseCredits(t, m.liveKey, c.id)).toEqual([{ sms: 1000 }]);
    expect(await smsLeft(t, m.liveKey)).toBe(1000);
  });

  it('a webhook alone (the shopper never came back) completes the checkout', async () => {
    const m = await createMerchant(t);
    const { c } = await handedToPaystack(m);
    expect((await webhook(chargeSuccess(c.id))).status).toBe(200);
    const read = await eventually(
      async () => {
        const r = await t.request('GET', `/v1/billing/checkout/${c.id}`, { key: m.liveKey });
        return r.body.status === 'succeeded' ? r : undefined;
      },
      20_000,
      'succeeded',
    );
    expect(read.body.sms).toBe(1000);
    expect(await smsLeft(t, m.liveKey)).toBe(1000);
  });

  describe('webhook signature', () => {
    it('401 for a missing or wrong signature, in the API error shape; nothing is verified or credited', async () => {
      const m = await createMerchant(t);
      const { c } = await handedToPaystack(m);
      const body = chargeSuccess(c.id);
      for (const signature of [null, 'nope', sign(body, 'sk_test_other'), sign(`${body} `)]) {
        const response = await webhook(body, signature);
        expect(response.status).toBe(401);
        const json = await response.json();
        expect(json).toMatchObject({
          error: {
            type: 'authentication_error',
            code: 'invalid_signature',
            request_id: expect.stringMatching(/^req_/),
          },
        });
      }
      expect(fake.requests.some((r) => r.path.startsWith('/transaction/verify'))).toBe(false);
      expect((await t.request('GET', `/v1/billing/checkout/${c.id}`, { key: m.liveKey })).body.status).toBe(
        'pending',
      );
      expect(await smsLeft(t, m.liveKey)).toBe(0);
    });

    it('400 for a signed body that is not a Paystack event; 200 for other events and unknown references', async () => {
      const bad = await t.request('POST', '/v1/billing/webhooks/paystack', {
        body: JSON.stringify({ nothing: true }),
        headers: { 'x-paystack-signature': sign(JSON.stringify({ nothing: true })) },
      });
      expectError(bad, 400, 'invalid_webhook');
      const other = JSON.stringify({ event: 'transfer.success', data: { reference: 'x' } });
      expect((await webhook(other)).status).toBe(200);
      const unknown = chargeSuccess('chk_0000000000000000000000');
      expect((await webhook(unknown)).status).toBe(200);
      expect((await webhook(chargeSuccess('not-ours'))).status).toBe(200);
    });
  });

  it('an amount mismatch fails the checkout with the reason and credits nothing', async () => {
    const m = await createMerchant(t);
    const { c } = await handedToPaystack(m);
    fake.behaviour = 'amount-mismatch';
    fake.mismatchAmount = 50;
    expect((await webhook(chargeSuccess(c.id))).status).toBe(200);
    await eventually(
      async () => {
        const r = await t.request('GET', `/v1/billing/checkout/${c.id}`, { key: m.liveKey });
        return r.body.status === 'failed' ? r : undefined;
      },
      20_000,
      'failed',
    );
    const back = await openPage(t, `/checkout/${c.id}/return?reference=${c.id}`);
    expect(back.status).toBe(303);
    expect(back.location).toBe(`https://shop.example/cart?checkout_id=${c.id}`);
    expect(await smsLeft(t, m.liveKey)).toBe(0);
    expect(await purchaseCredits(t, m.liveKey, c.id)).toEqual([]);
  });

  it('a currency mismatch fails the checkout and credits nothing', async () => {
    const m = await createMerchant(t);
    const { c } = await handedToPaystack(m);
    fake.behaviour = 'currency-mismatch';
    const back = await openPage(t, `/checkout/${c.id}/return?reference=${c.id}`);
    expect(back.status).toBe(303);
    expect(back.location).toBe(`https://shop.example/cart?checkout_id=${c.id}`);
    expect((await t.request('GET', `/v1/billing/checkout/${c.id}`, { key: m.liveKey })).body.status).toBe(
      'failed',
    );
    expect(await smsLeft(t, m.liveKey)).toBe(0);
  });

  it('a failed verification (the browser claims success) credits nothing', async () => {
    const m = await createMerchant(t);
    const { c } = await handedToPaystack(m);
    fake.behaviour = 'verify-failed';
    const back = await openPage(t, `/checkout/${c.id}/return?reference=${c.id}&status=success`);
    expect(back.status).toBe(303);
    expect(back.location).toBe(`https://shop.example/cart?checkout_id=${c.id}`);
    expect((await webhook(chargeSuccess(c.id))).status).toBe(200);
    expect((await t.request('GET', `/v1/billing/checkout/${c.id}`, { key: m.liveKey })).body).toMatchObject({
      status: 'failed',
      sms: 0,
    });
    expect(await smsLeft(t, m.liveKey)).toBe(0);
    expect(await purchaseCredits(t, m.liveKey, c.id)).toEqual([]);
  });

  it('Paystack being down records nothing: the return page waits and checks again, and a later load succeeds', async () => {
    const m = await createMerchant(t);
    const { c } = await handedToPaystack(m);
    fake.behaviour = 'http-500';
    const down = await openPage(t, `/checkout/${c.id}/return?reference=${c.id}`);
    expect(down.status).toBe(200);
    expect(down.html).toContain('not received confirmation');
    expect(down.html).toContain('http-equiv="refresh"');
    expect(down.html).not.toContain(SECRET);
    expect((await t.request('GET', `/v1/billing/checkout/${c.id}`, { key: m.liveKey })).body.status).toBe(
      'pending',
    );
    fake.behaviour = 'success';
    const back = await openPage(t, `/checkout/${c.id}/return?reference=${c.id}`);
    expect(back.status).toBe(303);
    expect(back.location).toBe(`https://shop.example/paid?o=7&checkout_id=${c.id}`);
    expect(await smsLeft(t, m.liveKey)).toBe(1000);
  });

  it('Cancel on the LIVE page goes to cancel_url and fails the unpaid checkout', async () => {
    const c = await startCheckout(t, merchant.liveKey, {
      package_id: 'pkg_growth',
      success_url: 'https://shop.example/paid',
      cancel_url: 'https://shop.example/cart',
    });
    const cancelled = await submitForm(t, `/checkout/${c.id}/decline`);
    expect(cancelled.status).toBe(303);
    expect(cancelled.location).toBe(`https://shop.example/cart?checkout_id=${c.id}`);
    expect(
      (await t.request('GET', `/v1/billing/checkout/${c.id}`, { key: merchant.liveKey })).body.status,
    ).toBe('failed');
    // A TEST Pay cannot be used on a LIVE checkout.
    const c2 = await startCheckout(t, merchant.liveKey);
    expect((await submitForm(t, `/checkout/${c2.id}/pay`)).status).toBe(400);
    expect(await smsLeft(t, merchant.liveKey)).toBe(0);
  });
});
