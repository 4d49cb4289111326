import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMerchant, Merchant } from '../support/merchant';
import {
  openPage,
  pathOf,
  purchaseCredits,
  smsLeft,
  startCheckout,
  submitForm,
} from '../support/hosted-checkout';
import { expectError, startTestApp, TestApp } from '../support/test-app';

/** Plenty of room for the many hosted-page requests one test run makes from 127.0.0.1. */
const GENEROUS_ADDRESS_LIMITS = { RATE_LIMIT_PER_ADDRESS_RPS: '5000', RATE_LIMIT_PER_ADDRESS_BURST: '5000' };

describe('Billing: hosted checkout with the TEST provider', () => {
  let t: TestApp;
  let merchant: Merchant;
  beforeAll(async () => {
    t = await startTestApp({ env: GENEROUS_ADDRESS_LIMITS });
    merchant = await createMerchant(t);
  });
  afterAll(() => t.close());

  it('runs the whole purchase over HTTP: start → page → Pay → success_url → succeeded → credits', async () => {
    const m = await createMerchant(t);
    expect(await smsLeft(t, m.testKey)).toBe(100);

    const started = await t.request('POST', '/v1/billing/checkout', {
      key: m.testKey,
      body: {
        package_id: 'pkg_starter',
        success_url: 'https://shop.example/paid?order=42&lang=en#receipt',
        cancel_url: 'https://shop.example/cart',
      },
    });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({
      id: expect.stringMatching(/^chk_[0-9A-Za-z]{22}$/),
      object: 'checkout',
      status: 'pending',
      checkout_url: `${t.config.publicUrl}/checkout/${started.body.id}`,
      package_id: 'pkg_starter',
      amount: 5000,
      currency: 'GHS',
      sms: 0,
      success_url: 'https://shop.example/paid?order=42&lang=en#receipt',
      cancel_url: 'https://shop.example/cart',
      expires_at: expect.any(String),
      created_at: expect.any(String),
    });
    const ttl = Date.parse(started.body.expires_at) - Date.parse(started.body.created_at);
    expect(ttl).toBe(30 * 60 * 1000);
    const id: string = started.body.id;

    // Read-your-writes: readable at once.
    const read = await t.request('GET', `/v1/billing/checkout/${id}`, { key: m.testKey });
    expect(read.body).toMatchObject({ id, status: 'pending', sms: 0 });

    const page = await openPage(t, pathOf(started.body.checkout_url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.html).toContain('<meta name="viewport"');
    expect(page.html).toContain('GHS 50.00');
    expect(page.html).toContain('Starter');
    expect(page.html).toContain('1,000');
    expect(page.html).toContain('shop.example');
    expect(page.html).toContain(`action="/checkout/${id}/pay"`);
    expect(page.html).toContain(`action="/checkout/${id}/decline"`);
    expect(page.html).not.toMatch(/<script|src="http/i);

    const paid = await submitForm(t, `/checkout/${id}/pay`);
    expect(paid.status).toBe(303);
    const back = new URL(paid.location!);
    expect(`${back.origin}${back.pathname}`).toBe('https://shop.example/paid');
    expect(back.searchParams.get('order')).toBe('42');
    expect(back.searchParams.get('lang')).toBe('en');
    expect(back.searchParams.get('checkout_id')).toBe(id);
    expect(back.hash).toBe('#receipt');
    expect(paid.location).toBe(`https://shop.example/paid?order=42&lang=en&checkout_id=${id}#receipt`);

    // The redirect came after the credits: the merchant's server reads the truth at once.
    const after = await t.request('GET', `/v1/billing/checkout/${id}`, { key: m.testKey });
    expect(after.body).toMatchObject({ id, status: 'succeeded', sms: 1000 });
    expect(await smsLeft(t, m.testKey)).toBe(1100);
    expect(await purchaseCredits(t, m.testKey, id)).toEqual([{ sms: 1000 }]);

    // Reloading / resubmitting never pays twice.
    const again = await submitForm(t, `/checkout/${id}/pay`);
    expect(again.status).toBe(303);
    expect(again.location).toBe(paid.location);
    const settledPage = await openPage(t, `/checkout/${id}`);
    expect(settledPage.status).toBe(200);
    expect(settledPage.html).toContain('Payment complete');
    expect(settledPage.html).not.toContain(`/checkout/${id}/pay`);
    const declineAfterPay = await submitForm(t, `/checkout/${id}/decline`);
    expect(declineAfterPay.status).toBe(303);
    expect(declineAfterPay.location).toBe(paid.location);
    expect(await smsLeft(t, m.testKey)).toBe(1100);
    expect((await t.request('GET', `/v1/billing/checkout/${id}`, { key: m.testKey })).body.status).toBe(
      'succeeded',
    );
  });

  it('a success_url without a query gets one; an existing checkout_id is replaced, not doubled', async () => {
    const plain = await startCheckout(t, merchant.testKey, {
      package_id: 'pkg_starter',
      success_url: 'https://shop.example/done',
    });
    expect((await submitForm(t, `/checkout/${plain.id}/pay`)).location).toBe(
      `https://shop.example/done?checkout_id=${plain.id}`,
    );
    const withParam = await startCheckout(t, merchant.testKey, {
      package_id: 'pkg_starter',
      success_url: 'https://shop.example/done?checkout_id=old&x=1',
    });
    const location = (await submitForm(t, `/checkout/${withParam.id}/pay`)).location!;
    expect(new URL(location).searchParams.getAll('checkout_id')).toEqual([withParam.id]);
    expect(new URL(location).searchParams.get('x')).toBe('1');
  });

  it('Decline goes to cancel_url with checkout_id; the checkout fails and adds nothing', async () => {
    const m = await createMerchant(t);
    const c = await startCheckout(t, m.testKey, {
      package_id: 'pkg_growth',
      success_url: 'https://shop.example/paid',
      cancel_url: 'https://shop.example/cart?step=pay',
    });
    const declined = await submitForm(t, `/checkout/${c.id}/decline`);
    expect(declined.status).toBe(303);
    expect(declined.location).toBe(`https://shop.example/cart?step=pay&checkout_id=${c.id}`);
    const read = await t.request('GET', `/v1/billing/checkout/${c.id}`, { key: m.testKey });
    expect(read.body).toMatchObject({ status: 'failed', sms: 0 });
    // A declined checkout cannot be paid afterwards.
    const payLater = await submitForm(t, `/checkout/${c.id}/pay`);
    expect(payLater.status).toBe(409);
    expect(payLater.html).toContain('declined');
    expect(await smsLeft(t, m.testKey)).toBe(100);
    expect(await purchaseCredits(t, m.testKey, c.id)).toEqual([]);
  });

  it('Decline without cancel_url shows a clear "payment declined" page', async () => {
    const c = await startCheckout(t, merchant.testKey, {
      package_id: 'pkg_starter',
      success_url: 'https://shop.example/paid',
    });
    const declined = await submitForm(t, `/checkout/${c.id}/decline`);
    expect(declined.status).toBe(200);
    expect(declined.html).toContain('Payment declined');
    expect(
      (await t.request('GET', `/v1/billing/checkout/${c.id}`, { key: merchant.testKey })).body.status,
    ).toBe('failed');
  });

  it('credits exactly once under 20 concurrent Pay POSTs and 20 concurrent reads', async () => {
    const m = await createMerchant(t);
    const c = await startCheckout(t, m.testKey, {
      package_id: 'pkg_starter',
      success_url: 'https://shop.example/paid?o=1',
    });
    const [pays, reads] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => submitForm(t, `/checkout/${c.id}/pay`))),
      Promise.all(
        Array.from({ length: 20 }, () =>
          t.request('GET', `/v1/billing/checkout/${c.id}`, { key: m.testKey }),
        ),
      ),
    ]);
    for (const pay of pays) {
      expect(pay.status).toBe(303);
      expect(pay.location).toBe(`https://shop.example/paid?o=1&checkout_id=${c.id}`);
    }
    for (const read of reads) {
      expect(read.status).toBe(200);
      expect(['pending', 'succeeded']).toContain(read.body.status);
      expect(read.body.sms).toBe(read.body.status === 'succeeded' ? 1000 : 0);
    }
    expect((await t.request('GET', `/v1/billing/checkout/${c.id}`, { key: m.testKey })).body).toMatchObject({
      status: 'succeeded',
      sms: 1000,
    });
    expect(await smsLeft(t, m.testKey)).toBe(1100);
    expect(await purchaseCredits(t, m.testKey, c.id)).toEqual([{ sms: 1000 }]);
  });

  describe('access', () => {
    it('another wallet or environment gets 404, never a hint the checkout exists', async () => {
      const c = await startCheckout(t, merchant.testKey);
      const other = await createMerchant(t);
      const unknown = expectError(
        await t.request('GET', '/v1/billing/checkout/chk_0000000000000000000000', { key: merchant.testKey }),
        404,
        'resource_missing',
      );
      const crossWallet = expectError(
        await t.request('GET', `/v1/billing/checkout/${c.id}`, { key: other.testKey }),
        404,
        'resource_missing',
      );
      const crossEnv = expectError(
        await t.request('GET', `/v1/billing/checkout/${c.id}`, { key: merchant.liveKey }),
        404,
        'resource_missing',
      );
      expectError(
        await t.request('GET', '/v1/billing/checkout/not-an-id', { key: merchant.testKey }),
        404,
        'resource_missing',
      );
      expect(crossWallet.message).toBe(unknown.message);
      expect(crossEnv.message).toBe(unknown.message);
      expectError(await t.request('GET', `/v1/billing/checkout/${c.id}`), 401, 'invalid_api_key');
    });

    it('unknown or malformed ids on the hosted pages are a 404 HTML page', async () => {
      for (const path of [
        '/checkout/chk_0000000000000000000000',
        '/checkout/nope',
        '/checkout/%3Cscript%3E',
        '/checkout/chk_0000000000000000000000/return',
      ]) {
        const page = await openPage(t, path);
        expect(page.status).toBe(404);
        expect(page.headers.get('content-type')).toMatch(/^text\/html/);
        expect(page.html).toContain('not found');
        expect(page.html).not.toContain('<script>');
      }
      const pay = await submitForm(t, '/checkout/chk_0000000000000000000000/pay');
      expect(pay.status).toBe(404);
    });
  });

  describe('validation', () => {
    const start = (body: unknown, key = merchant.testKey) =>
      t.request('POST', '/v1/billing/checkout', { key, body });

    it('400 unknown_package for a package that is not published', async () => {
      expect(
        expectError(
          await start({ package_id: 'pkg_nope', success_url: 'https://shop.example/' }),
          400,
          'unknown_package',
        ),
      ).toMatchObject({
        type: 'invalid_request_error',
        param: 'package_id',
      });
    });

    it.each([
      'ftp://shop.example/paid',
      '/paid',
      'shop.example/paid',
      'javascript:alert(1)',
      'data:text/html,hi',
      'http://',
      'https:shop.example',
    ])('400 invalid_url for success_url %s and for the same cancel_url', async (url) => {
      expect(
        expectError(await start({ package_id: 'pkg_starter', success_url: url }), 400, 'invalid_url').param,
      ).toBe('success_url');
      expect(
        expectError(
          await start({ package_id: 'pkg_starter', success_url: 'https://shop.example/', cancel_url: url }),
          400,
          'invalid_url',
        ).param,
      ).toBe('cancel_url');
    });

    it('400 parameter_missing for a missing package_id or success_url', async () => {
      expect(
        expectError(await start({ success_url: 'https://shop.example/' }), 400, 'parameter_missing').param,
      ).toBe('package_id');
      expect(expectError(await start({ package_id: 'pkg_starter' }), 400, 'parameter_missing').param).toBe(
        'success_url',
      );
      expect(
        expectError(
          await start({ package_id: 42, success_url: 'https://shop.example/' }),
          400,
          'parameter_invalid',
        ).param,
      ).toBe('package_id');
    });

    it('400 payments_unavailable for LIVE when no Paystack key is configured', async () => {
      expectError(
        await start({ package_id: 'pkg_starter', success_url: 'https://shop.example/' }, merchant.liveKey),
        400,
        'payments_unavailable',
      );
    });
  });
});

describe('Billing: hosted page escaping and rate limits', () => {
  it('escapes every value it shows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pkgs-'));
    const file = join(dir, 'packages.json');
    writeFileSync(
      file,
      JSON.stringify([
        {
          id: 'pkg_evil',
          name: '<script>alert("x")</script> & \'co\'',
          amount: 123456,
          currency: 'GHS',
          sms: 10,
        },
      ]),
    );
    const t = await startTestApp({ env: { PACKAGES_FILE: file, ...GENEROUS_ADDRESS_LIMITS } });
    try {
      const m = await createMerchant(t);
      const c = await startCheckout(t, m.testKey, {
        package_id: 'pkg_evil',
        success_url: `https://shop.example/a?q='"><img src=x onerror=alert(1)>#'"<b>`,
      });
      const page = await openPage(t, pathOf(c.checkout_url));
      expect(page.status).toBe(200);
      expect(page.html).not.toContain('<script>alert');
      expect(page.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;');
      expect(page.html).toContain('GHS 1,234.56');
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'"); // no inline script runs (test/security)
      await submitForm(t, `/checkout/${c.id}/pay`);
      const settled = await openPage(t, `/checkout/${c.id}`);
      expect(settled.html).toContain('Payment complete');
      expect(settled.html).not.toMatch(/<img|<b>|href="[^"]*"[^>]*"/);
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('limits hosted pages per client address with 429 and Retry-After', async () => {
    const t = await startTestApp({
      env: { RATE_LIMIT_PER_ADDRESS_RPS: '1', RATE_LIMIT_PER_ADDRESS_BURST: '3' },
    });
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 6; i++) {
        const page = await openPage(t, '/checkout/chk_0000000000000000000000');
        statuses.push(page.status);
        if (page.status === 429) retryAfter = page.headers.get('retry-after');
      }
      expect(statuses).toContain(429);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    } finally {
      await t.close();
    }
  });
});
