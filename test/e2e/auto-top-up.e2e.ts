import { CommandBus } from '@nestjs/cqrs';
import { FakePaystackServer } from '../../src/billing/adapters/paystack/fake-paystack-server.test-support';
import { GrantCredits } from '../../src/wallet/application/commands/grant-credits.command';
import {
  openPage,
  pathOf,
  purchaseCredits,
  smsLeft,
  startCheckout,
  submitForm,
} from '../support/hosted-checkout';
import { createMerchant, Merchant } from '../support/merchant';
import { startSmtpServer, TestSmtpServer } from '../support/smtp-server';
import { eventually, expectError, startTestApp, TestApp } from '../support/test-app';

/**
 * Auto top-up over HTTP (API.md, Wallet care): a card saved by a payment (TEST: the test card;
 * LIVE: Paystack's reusable authorization, from the fake Paystack server), charged when sms_left
 * falls to the threshold, credited exactly once like a checkout; declines mail the account and
 * three in a row turn it off; a charge that succeeds after our timeout is found and credited once.
 */
jest.setTimeout(180_000);

const SECRET = 'sk_test_auto_top_up_secret';

describe('Auto top-up', () => {
  let smtp: TestSmtpServer;
  let fake: FakePaystackServer;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    fake = new FakePaystackServer({ secretKey: SECRET, slowMs: 1_500 });
    await fake.start();
    t = await startTestApp({
      env: {
        SMTP_URL: smtp.url,
        MAIL_POLL_MS: '50',
        PAYSTACK_SECRET_KEY: SECRET,
        PAYSTACK_BASE_URL: fake.baseUrl,
        PAYSTACK_TIMEOUT_MS: '500',
        CHECKOUT_TTL_MS: '3000',
        TEST_DLR_DELAY_MS: '20',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    await smtp?.close();
  });

  const autoTopUp = (m: Merchant, key: string) =>
    t.request('GET', '/v1/wallet/auto_topup', { key }).then((r) => r.body);
  const grant = (walletId: string, sms: number) =>
    t.app.get(CommandBus).execute(new GrantCredits(walletId, sms, 'nudge'));
  const mailsTo = (m: Merchant, subject: string) =>
    smtp.mails.filter((mail) => mail.to.includes(m.email) && mail.subject === subject);

  /** A LIVE checkout paid at (fake) Paystack: its verify reports a reusable card. */
  async function payLive(m: Merchant) {
    const c = await startCheckout(t, m.liveKey, {
      package_id: 'pkg_starter',
      success_url: 'https://shop.example/paid',
    });
    await openPage(t, pathOf(c.checkout_url));
    await submitForm(t, `/checkout/${c.id}/start`);
    await openPage(t, `/checkout/${c.id}/return?trxref=${c.id}&reference=${c.id}`);
    await eventually(async () => ((await autoTopUp(m, m.liveKey)).card ? true : undefined));
    return c;
  }

  it('TEST: needs a saved card (409); a payment saves the test card; a fall to the threshold buys once', async () => {
    const m = await createMerchant(t);
    const refused = await t.request('PUT', '/v1/wallet/auto_topup', {
      key: m.testKey,
      body: { enabled: true, threshold: 50, package_id: 'pkg_starter' },
    });
    expect(expectError(refused, 409, 'no_saved_card')).toBeTruthy();
    expect(
      expectError(
        await t.request('PUT', '/v1/wallet/auto_topup', {
          key: m.testKey,
          body: { enabled: true, threshold: -1, package_id: 'pkg_starter' },
        }),
        400,
        'invalid_threshold',
      ).param,
    ).toBe('threshold');
    expect(
      expectError(
        await t.request('PUT', '/v1/wallet/auto_topup', {
          key: m.testKey,
          body: { enabled: false, threshold: 5, package_id: 'pkg_nope' },
        }),
        400,
        'unknown_package',
      ).param,
    ).toBe('package_id');

    const c = await startCheckout(t, m.testKey);
    await submitForm(t, `/checkout/${c.id}/pay`);
    await eventually(async () => ((await autoTopUp(m, m.testKey)).card ? true : undefined));
    expect((await autoTopUp(m, m.testKey)).card).toEqual({
      brand: 'visa',
      last4: '4242',
      exp_month: '12',
      exp_year: '2030',
    });

    const left = await smsLeft(t, m.testKey); // 1100
    const set = await t.request('PUT', '/v1/wallet/auto_topup', {
      key: m.testKey,
      body: { enabled: true, threshold: left - 1, package_id: 'pkg_starter' },
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      object: 'auto_topup',
      enabled: true,
      threshold: left - 1,
      package_id: 'pkg_starter',
      failures_in_a_row: 0,
    });
    expect(JSON.stringify(set.body)).not.toContain('AUTH_');

    const sent = await t.request('POST', '/v1/messages', {
      key: m.testKey,
      body: { to: '+233200000001', sender_id: 'MyShop', message: 'hi', type: 'transactional' },
    });
    expect(sent.status).toBe(200);
    await eventually(async () => ((await smsLeft(t, m.testKey)) === left - 1 + 1000 ? true : undefined));
    const [receipt] = await smtp.waitForMails(
      1,
      (mail) => mail.to.includes(m.email) && mail.decoded.includes('Auto top-up bought 1,000 SMS credits'),
    );
    expect(receipt.subject).toBe('Receipt: 1,000 SMS credits (GHS 50.00)');
    // Credited once: the wallet's purchases are the checkout and one top-up.
    const events = await t.request('GET', '/v1/wallet/events?limit=1000', { key: m.testKey });
    const purchases = events.body.data.filter(
      (e: { type: string; data: { source?: string } }) =>
        e.type === 'CreditsAdded' && e.data.source === 'purchase',
    );
    expect(purchases).toHaveLength(2);
    expect(await purchaseCredits(t, m.testKey, purchases[1].data.sourceId)).toEqual([{ sms: 1000 }]);
  });

  it('LIVE: a declined charge mails the account; three in a row turn it off; at most three a day', async () => {
    const m = await createMerchant(t);
    await payLive(m);
    expect((await autoTopUp(m, m.liveKey)).card).toMatchObject({ brand: 'visa', last4: '4081' });
    fake.behaviour = 'charge-declined';
    // 1,000 left and a threshold of 5,000: the very setting triggers the first top-up.
    await t.request('PUT', '/v1/wallet/auto_topup', {
      key: m.liveKey,
      body: { enabled: true, threshold: 5_000, package_id: 'pkg_growth' },
    });
    await eventually(async () =>
      (await autoTopUp(m, m.liveKey)).failures_in_a_row === 1 ? true : undefined,
    );
    await smtp.waitForMails(1, (mail) => mailsTo(m, 'Auto top-up failed').includes(mail));
    expect(mailsTo(m, 'Auto top-up failed')[0].decoded).toContain('failed: Declined');
    await grant(m.wallets.LIVE, 1);
    await eventually(async () =>
      (await autoTopUp(m, m.liveKey)).failures_in_a_row === 2 ? true : undefined,
    );
    await grant(m.wallets.LIVE, 1);
    const off = await eventually(async () => {
      const state = await autoTopUp(m, m.liveKey);
      return state.failures_in_a_row === 3 ? state : undefined;
    });
    expect(off).toMatchObject({ enabled: false, last_failure: { reason: 'failed: Declined' } });
    await smtp.waitForMails(1, (mail) => mailsTo(m, 'Auto top-up failed and is now off').includes(mail));
    const charges = fake.charges.filter((c) => c.amount === 20000);
    expect(charges.length).toBeGreaterThanOrEqual(3);
    const mine = charges.slice(-3);
    expect(new Set(mine.map((c) => c.reference)).size).toBe(3);

    // On again, and the card works now: the day's three top-ups are used, so nothing is charged.
    fake.behaviour = 'success';
    await t.request('PUT', '/v1/wallet/auto_topup', { key: m.liveKey, body: { enabled: true } });
    const before = fake.charges.length;
    await grant(m.wallets.LIVE, 1);
    await eventually(async () => ((await smsLeft(t, m.liveKey)) === 1003 ? true : undefined));
    // The grant's observation has been made once the read model shows it; still no charge.
    expect(fake.charges.length).toBe(before);
  });

  it('LIVE: a charge that succeeds after our timeout is found by verifying, and credited once', async () => {
    const m = await createMerchant(t);
    await payLive(m);
    fake.behaviour = 'slow';
    await t.request('PUT', '/v1/wallet/auto_topup', {
      key: m.liveKey,
      body: { enabled: true, threshold: 5_000, package_id: 'pkg_starter' },
    });
    // Our charge gives up after 500 ms; Paystack takes it at 1.5 s (and answers verifies at once
    // from then on); the expiry sweep verifies.
    await eventually(async () =>
      fake.requests.some((r) => r.path === '/transaction/charge_authorization' && r.rawBody.includes(m.email))
        ? true
        : undefined,
    );
    fake.behaviour = 'success';
    await eventually(
      async () => ((await smsLeft(t, m.liveKey)) === 2000 ? true : undefined),
      60_000,
      'the top-up credited',
    );
    const state = await eventually(async () => {
      const s = await autoTopUp(m, m.liveKey);
      return s.failures_in_a_row === 0 && s.enabled ? s : undefined;
    });
    expect(state.last_failure).toBeNull();
    const events = await t.request('GET', '/v1/wallet/events?limit=1000', { key: m.liveKey });
    const purchases = events.body.data.filter(
      (e: { type: string; data: { source?: string } }) =>
        e.type === 'CreditsAdded' && e.data.source === 'purchase',
    );
    expect(purchases).toHaveLength(2);
    const topUpId = purchases[1].data.sourceId as string;
    expect(fake.charges.filter((c) => c.reference === topUpId)).toHaveLength(1);
    await smtp.waitForMails(
      1,
      (mail) => mail.to.includes(m.email) && mail.decoded.includes(`Checkout: ${topUpId}`),
    );
  });
});
