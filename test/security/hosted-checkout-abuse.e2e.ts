import { openPage, pathOf, purchaseCredits, smsLeft, startCheckout } from '../support/hosted-checkout';
import { createMerchant, Merchant } from '../support/merchant';
import { startTestApp, TestApp } from '../support/test-app';
import { visitSignIn } from '../support/console-form';

/**
 * The hosted checkout needs no sign-in, so its URL is the only capability. Whatever a shopper (or
 * an attacker holding a link) sends: credits go to the checkout's own wallet, exactly once, and
 * the browser is only ever sent to the URLs the merchant gave when starting it.
 */
describe('hosted checkout abuse', () => {
  let t: TestApp;
  let a: Merchant;
  let b: Merchant;

  beforeAll(async () => {
    t = await startTestApp({
      env: { RATE_LIMIT_PER_ADDRESS_RPS: '5000', RATE_LIMIT_PER_ADDRESS_BURST: '5000' },
    });
    a = await createMerchant(t);
    b = await createMerchant(t);
  });
  afterAll(() => t?.close());

  const post = async (
    path: string,
    form: Record<string, string> = {},
    headers: Record<string, string> = {},
  ) => {
    const response = await fetch(`${t.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
      redirect: 'manual',
    });
    return {
      status: response.status,
      location: response.headers.get('location'),
      html: await response.text(),
    };
  };

  /** Fields and query parameters an attacker might hope the page honours. */
  const HOSTILE = {
    wallet_id: '', // filled per test with the other wallet
    walletId: '',
    account_id: '',
    checkout_id: 'chk_someoneelse',
    amount: '1',
    sms: '1000000',
    next: 'https://evil.example/steal',
    success_url: 'https://evil.example/steal',
    cancel_url: 'https://evil.example/cancel',
    redirect: 'https://evil.example/r',
    return_to: '//evil.example',
  };

  it('paying A’s checkout credits A’s wallet only, whatever wallet, account or amount the request names', async () => {
    const checkout = await startCheckout(t, a.testKey);
    const [aBefore, bBefore] = [await smsLeft(t, a.testKey), await smsLeft(t, b.testKey)];
    const hostile = {
      ...HOSTILE,
      wallet_id: b.wallets.TEST,
      walletId: b.wallets.TEST,
      account_id: b.accountId,
    };
    const query = new URLSearchParams(hostile).toString();

    const paid = await post(`${pathOf(checkout.checkout_url)}/pay?${query}`, hostile, {
      cookie: `wallet=${b.wallets.TEST}`,
    });
    expect(paid.status).toBe(303);

    expect(await smsLeft(t, a.testKey)).toBe(aBefore + 1000);
    expect(await smsLeft(t, b.testKey)).toBe(bBefore);
    expect(await purchaseCredits(t, a.testKey, checkout.id)).toEqual([{ sms: 1000 }]);
    expect(await purchaseCredits(t, b.testKey, checkout.id)).toEqual([]);

    // Paying again (reload, replay, another "wallet") never credits anyone a second time.
    for (let i = 0; i < 3; i++) await post(`${pathOf(checkout.checkout_url)}/pay?${query}`, hostile);
    expect(await smsLeft(t, a.testKey)).toBe(aBefore + 1000);
    expect(await smsLeft(t, b.testKey)).toBe(bBefore);
  });

  it('another merchant (or the other environment) cannot read or claim the checkout over the API', async () => {
    const checkout = await startCheckout(t, a.testKey);
    expect((await t.request('GET', `/v1/billing/checkout/${checkout.id}`, { key: b.testKey })).status).toBe(
      404,
    );
    expect((await t.request('GET', `/v1/billing/checkout/${checkout.id}`, { key: a.liveKey })).status).toBe(
      404,
    );
    expect((await t.request('GET', `/v1/billing/checkout/${checkout.id}`, { key: a.testKey })).status).toBe(
      200,
    );
  });

  it('look-alike ids in the page URL find nothing', async () => {
    const checkout = await startCheckout(t, a.testKey);
    for (const id of [
      checkout.id.toUpperCase(),
      `${checkout.id}x`,
      `${checkout.id}%00`,
      encodeURIComponent(` ${checkout.id}`),
    ]) {
      const page = await post(`/checkout/${id}/pay`);
      expect(page.status).toBeGreaterThanOrEqual(400);
      expect(page.status).toBeLessThan(500);
    }
    expect(
      (await t.request('GET', `/v1/billing/checkout/${checkout.id}`, { key: a.testKey })).body.status,
    ).toBe('pending');
  });

  it('after paying, redirects only to the merchant’s success_url (with checkout_id), never to a URL from the request', async () => {
    const successUrl = 'https://shop.example/paid?order=42&lang=en#done';
    const checkout = await startCheckout(t, a.testKey, {
      package_id: 'pkg_starter',
      success_url: successUrl,
      cancel_url: 'https://shop.example/cart',
    });
    const query = new URLSearchParams(HOSTILE).toString();
    const paid = await post(`${pathOf(checkout.checkout_url)}/pay?${query}`, HOSTILE, {
      referer: 'https://evil.example/',
    });
    expect(paid.status).toBe(303);
    const location = new URL(paid.location!);
    expect(location.origin).toBe('https://shop.example');
    expect(paid.location).toBe(`https://shop.example/paid?order=42&lang=en&checkout_id=${checkout.id}#done`);

    // The paid page (a reload, with hostile query parameters) links back to the merchant only.
    const page = await openPage(t, `${pathOf(checkout.checkout_url)}?${query}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('evil.example');
    expect(page.html).toContain('https://shop.example/paid');
  });

  it('after declining, redirects only to the merchant’s cancel_url; without one, no redirect at all', async () => {
    const withCancel = await startCheckout(t, a.testKey, {
      package_id: 'pkg_starter',
      success_url: 'https://shop.example/paid',
      cancel_url: 'https://shop.example/cart?x=1',
    });
    const declined = await post(
      `${pathOf(withCancel.checkout_url)}/decline?${new URLSearchParams(HOSTILE)}`,
      HOSTILE,
    );
    expect(declined.status).toBe(303);
    expect(declined.location).toBe(`https://shop.example/cart?x=1&checkout_id=${withCancel.id}`);

    const withoutCancel = await startCheckout(t, a.testKey, {
      package_id: 'pkg_starter',
      success_url: 'https://shop.example/paid',
    });
    const page = await post(
      `${pathOf(withoutCancel.checkout_url)}/decline?${new URLSearchParams(HOSTILE)}`,
      HOSTILE,
    );
    expect(page.status).toBe(200);
    expect(page.location).toBeNull();
    expect(page.html).not.toContain('evil.example');
  });

  it('the merchant cannot make the page redirect to a script or a relative URL either', async () => {
    for (const url of [
      'javascript:alert(document.cookie)',
      'data:text/html,<script>alert(1)</script>',
      '//evil.example/x',
      '/console',
      'ftp://shop.example/x',
      'https://',
    ]) {
      const response = await t.request('POST', '/v1/billing/checkout', {
        key: a.testKey,
        body: { package_id: 'pkg_starter', success_url: url },
      });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_url');
      const cancel = await t.request('POST', '/v1/billing/checkout', {
        key: a.testKey,
        body: { package_id: 'pkg_starter', success_url: 'https://shop.example/ok', cancel_url: url },
      });
      expect(cancel.status).toBe(400);
    }
  });

  it('console sign-in never redirects off-site through next', async () => {
    for (const next of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      const visitor = await visitSignIn(t.baseUrl);
      const response = await fetch(`${t.baseUrl}/console/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: visitor.cookie },
        body: new URLSearchParams({
          _csrf: visitor.csrf,
          email: a.email,
          password: a.password,
          next,
        }).toString(),
        redirect: 'manual',
      });
      expect([302, 303]).toContain(response.status);
      const location = response.headers.get('location')!;
      expect(location.startsWith('/') && !location.startsWith('//') && !location.startsWith('/\\')).toBe(
        true,
      );
    }
  });
});
