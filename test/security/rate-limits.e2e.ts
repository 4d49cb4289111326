import { CommandBus } from '@nestjs/cqrs';
import { MintApiKey } from '../../src/accounts/application/commands/mint-api-key.command';
import { pathOf, startCheckout } from '../support/hosted-checkout';
import { createMerchant, Merchant } from '../support/merchant';
import { SANDBOX, sendBody } from '../support/messaging';
import { expectRateLimited, startTestApp, TestApp } from '../support/test-app';
import { postSignIn, visitSignIn } from '../support/console-form';

/**
 * API.md's limits with small numbers: per key 2/s with bursts of 3, per client address 1/s with
 * bursts of 2. Past either: 429 rate_limit_error with Retry-After (seconds).
 */
describe('rate limits (API.md Limits)', () => {
  let t: TestApp;
  let a: Merchant;
  let b: Merchant;

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        RATE_LIMIT_PER_KEY_RPS: '2',
        RATE_LIMIT_PER_KEY_BURST: '3',
        RATE_LIMIT_PER_ADDRESS_RPS: '1',
        RATE_LIMIT_PER_ADDRESS_BURST: '2',
      },
    });
    a = await createMerchant(t);
    b = await createMerchant(t);
  });
  afterAll(() => t?.close());

  /** Lets every bucket refill (burst / rate, with a margin). */
  const refill = () => new Promise((resolve) => setTimeout(resolve, 2_200));

  it('per key: the 4th fast request with one key is 429 with Retry-After; another key is unaffected', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await t.request('GET', '/v1/billing', { key: a.testKey }));
    expect(answers.slice(0, 3).map((r) => r.status)).toEqual([200, 200, 200]);
    expectRateLimited(answers[3]);

    // The same account's other key and another merchant's key have their own buckets.
    expect((await t.request('GET', '/v1/billing', { key: b.testKey })).status).toBe(200);
    expect((await t.request('GET', '/v1/billing', { key: a.liveKey })).status).toBe(200);

    // Every keyed endpoint shares the key's bucket: a send is refused too, and reserves nothing.
    const send = await t.request('POST', '/v1/messages', { key: a.testKey, body: sendBody() });
    expectRateLimited(send);

    await refill();
    expect((await t.request('GET', '/v1/billing', { key: a.testKey })).body.sms_left).toBe(100);
  });

  it('per key: a freshly minted key gets its own full burst', async () => {
    await refill();
    const minted = await t.app.get(CommandBus).execute(new MintApiKey(a.accountId, 'TEST', 'fresh'));
    for (let i = 0; i < 3; i++) await t.request('GET', '/v1/billing', { key: a.testKey });
    expect((await t.request('GET', '/v1/billing', { key: a.testKey })).status).toBe(429);
    const fresh = [];
    for (let i = 0; i < 3; i++)
      fresh.push((await t.request('GET', '/v1/billing', { key: minted.key })).status);
    expect(fresh).toEqual([200, 200, 200]);
  });

  it('per address: the try-out (POST /v1/sandbox/messages) answers 429 past the burst', async () => {
    await refill();
    const answers = [];
    for (let i = 0; i < 3; i++)
      answers.push(
        await t.request('POST', '/v1/sandbox/messages', { body: sendBody({ to: SANDBOX.delivered }) }),
      );
    expect(answers.slice(0, 2).map((r) => r.status)).toEqual([200, 200]);
    expectRateLimited(answers[2]);
    // Reads of try-out messages count against the same address.
    expectRateLimited(await t.request('GET', `/v1/sandbox/messages/${answers[0].body.id}`));
  });

  it('per address: the hosted checkout page answers 429 (an HTML page) with Retry-After', async () => {
    const checkout = await startCheckout(t, a.testKey);
    await refill();
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 3; i++) {
      last = await fetch(`${t.baseUrl}${pathOf(checkout.checkout_url)}`, { redirect: 'manual' });
      statuses.push(last.status);
      await last.text();
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(last!.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('per address: console sign-in answers 429 with Retry-After past the burst', async () => {
    const visitor = await visitSignIn(t.baseUrl); // GET pages are not limited
    await refill();
    // At once: each wrong password is hashed (slow on a busy machine), and the bucket refills meanwhile.
    const answers = await Promise.all(
      [0, 1, 2].map(() => postSignIn(t.baseUrl, visitor, a.email, 'wrong password')),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 429]);
    const limited = answers.find((r) => r.status === 429)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('the try-out page (POST /try) is limited per address too', async () => {
    const visitor = await visitSignIn(t.baseUrl);
    await refill();
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 3; i++) {
      last = await fetch(`${t.baseUrl}/try`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: visitor.cookie },
        body: new URLSearchParams({
          _csrf: visitor.csrf,
          to: SANDBOX.delivered,
          sender_id: 'MyShop',
          message: 'hi',
        }).toString(),
        redirect: 'manual',
      });
      statuses.push(last.status);
      await last.text();
    }
    expect(statuses.slice(0, 2).every((s) => s === 303 || s === 302)).toBe(true);
    expect(statuses[2]).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
