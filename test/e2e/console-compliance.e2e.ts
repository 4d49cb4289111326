import { numbersAssign } from '../../src/cli/commands/compliance.commands';
import { ConsoleBrowser } from '../support/console-form';
import { createMerchant, Merchant } from '../support/merchant';
import { startTestApp, TestApp } from '../support/test-app';

/** The console's Compliance page: the API's sender IDs, inbound messages and opt-outs, over HTTP. */
describe('console: Compliance', () => {
  let t: TestApp;
  let m: Merchant;
  let browser: ConsoleBrowser;

  beforeAll(async () => {
    t = await startTestApp();
    m = await createMerchant(t, undefined, { approvedSenderIds: [] });
    browser = new ConsoleBrowser(t.baseUrl);
    await browser.signIn(m.email, m.password);
  });
  afterAll(() => t?.close());

  const post = async (path: string, form: Record<string, string>) =>
    browser.go('POST', path, { ...(await browser.formTokens('/console/compliance')), ...form });

  it('requests a sender ID and shows it pending; a refusal is shown next to the form', async () => {
    const requested = await post('/console/compliance/sender-ids', {
      sender_id: 'Console Co',
      sample_message: 'Hi',
    });
    expect(requested.status).toBe(303);
    const page = await browser.go('GET', '/console/compliance');
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/<code>Console Co<\/code>[\s\S]*?pending/);

    const again = await post('/console/compliance/sender-ids', {
      sender_id: 'Console Co',
      sample_message: 'Hi',
    });
    // The form again, with the use case's refusal and its status (a conflict: already pending).
    expect(again.status).toBe(409);
    expect(again.html).toContain('already pending');
  });

  it('adds and removes an opt-out, and lists inbound messages', async () => {
    const added = await post('/console/compliance/opt-outs', { phone_number: '+233241119999' });
    expect(added.status).toBe(303);
    const list = await t.request('GET', '/v1/opt_outs', { key: m.testKey });
    expect(list.body.data).toEqual([
      expect.objectContaining({ phone_number: '+233241119999', source: 'console' }),
    ]);
    expect((await browser.go('GET', '/console/compliance')).html).toContain('+233241119999');

    expect(
      (await post('/console/compliance/opt-outs/remove', { phone_number: '+233241119999' })).status,
    ).toBe(303);
    expect((await t.request('GET', '/v1/opt_outs', { key: m.testKey })).body.data).toEqual([]);

    await numbersAssign.run(t.app, { number: '+233501119999', email: m.email });
    const inbound = await t.request('POST', '/v1/sandbox/inbound', {
      key: m.testKey,
      body: { from: '+233241118888', to: '+233501119999', message: 'When do you open?' },
    });
    expect(inbound.status).toBe(200);
    expect((await browser.go('GET', '/console/compliance')).html).toContain('When do you open?');
  });
});
