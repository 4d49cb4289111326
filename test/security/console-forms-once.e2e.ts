import { QueryBus } from '@nestjs/cqrs';
import { ApiKeys } from '../../src/accounts/application/queries/api-keys.query';
import { ConsoleBrowser } from '../support/console-form';
import { createMerchant, Merchant } from '../support/merchant';
import { SANDBOX, smsLeft } from '../support/messaging';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Console forms are safe to submit twice (a double click, a resubmitted page): each carries a
 * one-time token, and the same token again answers as the first submission did without acting
 * again. The send goes through the API's Idempotency-Key path.
 */
describe('console forms submitted twice act once (item 9)', () => {
  let t: TestApp;
  let m: Merchant;
  let browser: ConsoleBrowser;

  beforeAll(async () => {
    t = await startTestApp();
    m = await createMerchant(t);
    browser = new ConsoleBrowser(t.baseUrl);
    await browser.signIn(m.email, m.password);
  });
  afterAll(() => t?.close());

  it('the send form, sent twice at once and once more later, sends one message and charges once', async () => {
    const before = await smsLeft(t, m.testKey);
    const form = {
      ...(await browser.formTokens('/console/send')),
      to: SANDBOX.delivered,
      sender_id: 'MyShop',
      message: 'Sent twice, charged once',
      type: 'transactional',
    };
    const answers = await Promise.all([
      browser.go('POST', '/console/send', form),
      browser.go('POST', '/console/send', form),
    ]);
    answers.push(await browser.go('POST', '/console/send', form));
    expect(answers.map((a) => a.status)).toEqual([303, 303, 303]);
    expect(new Set(answers.map((a) => a.location)).size).toBe(1);
    expect(answers[0].location).toMatch(/^\/console\/messages\/msg_/);
    const listed = await t.request('GET', '/v1/messages?limit=10', { key: m.testKey });
    expect(listed.body.data.filter((msg: { message: string }) => msg.message === form.message)).toHaveLength(
      1,
    );
    expect(await smsLeft(t, m.testKey)).toBe(before - 1);

    // The same token with other content is not a second send either.
    const changed = await browser.go('POST', '/console/send', { ...form, message: 'Something else' });
    expect(changed.status).toBe(409);
    expect(await smsLeft(t, m.testKey)).toBe(before - 1);
  });

  it('the key form, sent twice, mints one key', async () => {
    const keysBefore = (await t.app.get(QueryBus).execute(new ApiKeys(m.accountId))).length;
    const form = { ...(await browser.formTokens('/console/keys')), environment: 'TEST', name: 'twice' };
    const answers = await Promise.all([
      browser.go('POST', '/console/keys', form),
      browser.go('POST', '/console/keys', form),
    ]);
    expect(answers.map((a) => [a.status, a.location])).toEqual([
      [303, '/console/keys'],
      [303, '/console/keys'],
    ]);
    const keys = await t.app.get(QueryBus).execute(new ApiKeys(m.accountId));
    expect(keys.length).toBe(keysBefore + 1);
    // The key is still shown once, on the page the second answer leads to.
    expect((await browser.go('GET', '/console/keys')).html).toMatch(/sms_test_[A-Za-z0-9]{32,}/);
  });

  it('the buy form, sent twice, goes to the one checkout it started', async () => {
    const tokens = await browser.formTokens('/console/billing');
    const form = { ...tokens, package_id: t.config.packages[0].id };
    const answers = await Promise.all([
      browser.go('POST', '/console/billing/checkout', form),
      browser.go('POST', '/console/billing/checkout', form),
    ]);
    expect(answers.map((a) => a.status)).toEqual([303, 303]);
    expect(answers[0].location).toMatch(/\/checkout\/chk_/);
    expect(answers[1].location).toBe(answers[0].location);
    // Another package from the same page is another checkout.
    const other = await browser.go('POST', '/console/billing/checkout', {
      ...tokens,
      package_id: t.config.packages[1].id,
    });
    expect(other.location).not.toBe(answers[0].location);
  });

  it('a form without its one-time token does nothing', async () => {
    const before = await smsLeft(t, m.testKey);
    const { _csrf } = await browser.formTokens('/console/send');
    const answer = await browser.go('POST', '/console/send', {
      _csrf,
      to: SANDBOX.delivered,
      sender_id: 'MyShop',
      message: 'no token',
    });
    expect(answer.status).toBe(400);
    expect(await smsLeft(t, m.testKey)).toBe(before);
  });
});
