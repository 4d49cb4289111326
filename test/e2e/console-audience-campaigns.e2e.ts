import { ConsoleBrowser } from '../support/console-form';
import { createMerchant, Merchant } from '../support/merchant';
import { SANDBOX } from '../support/messaging';
import { eventually, startTestApp, TestApp } from '../support/test-app';

/**
 * The console's Campaigns pages over HTTP: a campaign from a group and a message through its
 * preview (cost, skips, the first messages) to its page (counts, the chart by carrier, the CSV
 * report), a refused one shown on its form, a Send that acts once, the cancel of a scheduled one
 * and the retry of the failed messages. Every action is the API's use case.
 */
jest.setTimeout(180_000);

describe('console: Campaigns', () => {
  let t: TestApp;
  let m: Merchant;
  let browser: ConsoleBrowser;
  let groupId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { TEST_DLR_DELAY_MS: '50', CAMPAIGN_POLL_MS: '50' } });
    m = await createMerchant(t);
    browser = new ConsoleBrowser(t.baseUrl);
    await browser.signIn(m.email, m.password);
    const api = (path: string, body: unknown) => t.request('POST', path, { key: m.testKey, body });
    groupId = (await api('/v1/groups', { name: 'Parents' })).body.id;
    await api('/v1/contacts', {
      phone_number: SANDBOX.delivered,
      name: 'Ama',
      fields: { first_name: 'Ama' },
      groups: [groupId],
    });
    await api('/v1/contacts', {
      phone_number: SANDBOX.failed,
      name: 'Kofi',
      fields: { first_name: 'Kofi' },
      groups: [groupId],
    });
    await api('/v1/contacts', { phone_number: '+233241239001', name: 'Efua', groups: [groupId] });
  });
  afterAll(() => t?.close());

  const tokensOf = (html: string) => ({
    _csrf: /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '',
    _once: /id="campaign-send"[\s\S]*?name="_once" value="([^"]+)"/.exec(html)?.[1] ?? '',
  });
  const form = (over: Record<string, string> = {}) => ({
    name: 'Term reminder',
    sender_id: 'School',
    type: 'transactional',
    groups: groupId,
    message: 'Dear {{first_name}}, school resumes on Monday.',
    template_id: '',
    send_at: '',
    ...over,
  });
  const preview = async (over: Record<string, string> = {}) =>
    browser.go('POST', '/console/campaigns/preview', {
      _csrf: await browser.csrf('/console/campaigns/new'),
      ...form(over),
    });
  const apiCampaign = async (id: string) =>
    (await t.request('GET', `/v1/campaigns/${id}`, { key: m.testKey })).body;

  it('is in the navigation and lists no campaign at first', async () => {
    const page = await browser.go('GET', '/console/campaigns');
    expect(page.status).toBe(200);
    expect(page.html).toContain('<a href="/console/campaigns" aria-current="page">Campaigns</a>');
    expect(page.html).toContain('id="no-campaigns"');
    const created = await browser.go('GET', '/console/campaigns/new');
    expect(created.html).toMatch(/Parents <span class="muted">\(3 contacts\)/);
  });

  it('previews the cost, the skipped contacts and the first messages, then sends once and shows the campaign', async () => {
    const shown = await preview();
    expect(shown.status).toBe(200);
    expect(shown.html).toMatch(
      /<strong>2 recipients<\/strong>, <strong>2 credits<\/strong> held at once, sent now/,
    );
    expect(shown.html).toContain('1 contact skipped: a field the message needs is missing');
    expect(shown.html).toContain('Dear Ama, school resumes on Monday.');
    expect(shown.html).toContain('Send to 2 recipients');
    expect(await (await t.request('GET', '/v1/campaigns', { key: m.testKey })).body.data).toEqual([]);

    const send = { ...tokensOf(shown.html), ...form() };
    const sent = await browser.go('POST', '/console/campaigns', send);
    expect(sent.status).toBe(303);
    const id = sent.location?.split('/').pop() as string;
    expect(id).toMatch(/^cmp_/);
    // The same Send again (a double click, a resubmitted page): the campaign is made once.
    const again = await browser.go('POST', '/console/campaigns', send);
    expect([303, 409]).toContain(again.status);
    expect((await t.request('GET', '/v1/campaigns', { key: m.testKey })).body.data).toHaveLength(1);

    await eventually(async () => ((await apiCampaign(id)).status === 'completed' ? true : undefined), 60_000);
    const page = await browser.go('GET', `/console/campaigns/${id}`);
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/<strong>2<\/strong> of <strong>2 messages<\/strong> final/);
    expect(page.html).toContain('data-chart="campaign-carriers"');
    expect(page.html).toMatch(/<th scope="row">TELECEL<\/th><td>1<\/td><td>1<\/td>/);
    expect(page.html).toContain(`href="/console/campaigns/${id}/report.csv"`);
    expect(page.html).toContain('Retry the 1 failed or expired message');
    expect(page.html).not.toContain('id="campaign-cancel"');

    const report = await browser.go('GET', `/console/campaigns/${id}/report.csv`);
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(report.html.split('\r\n')[0]).toBe(
      'message_id,to,name,status,carrier,segments,credits,error_code,created_at,final_at',
    );
    expect(report.html).toContain(`${SANDBOX.failed},Kofi,FAILED,TELECEL`);

    const list = await browser.go('GET', '/console/campaigns');
    expect(list.html).toContain(`href="/console/campaigns/${id}">Term reminder</a>`);

    const retried = await browser.go(
      'POST',
      `/console/campaigns/${id}/retry`,
      await browser.formTokens(`/console/campaigns/${id}`),
    );
    expect(retried.status).toBe(303);
    const retry = await apiCampaign(retried.location?.split('/').pop() as string);
    expect(retry).toMatchObject({ retry_of: id, recipients: 1 });
    // Its credit comes back once its message fails again: the next test counts credits.
    await eventually(
      async () => ((await apiCampaign(retry.id)).status === 'completed' ? true : undefined),
      60_000,
    );
    const left = async () => (await t.request('GET', '/v1/billing', { key: m.testKey })).body.sms_left;
    const spent = (await apiCampaign(id)).credits_spent + (await apiCampaign(retry.id)).credits_spent;
    await eventually(
      async () => ((await left()) === 100 - spent ? true : undefined),
      60_000,
      'the retry credit back',
    );
  });

  it('shows a refusal on the form: no group chosen, a sender ID that is no sender ID', async () => {
    const none = await preview({ groups: '' });
    expect(none.status).toBe(400);
    expect(none.html).toContain('id="campaign-error"');
    expect(none.html).toContain('audience');
    const badSender = await preview({ sender_id: '!' });
    expect(badSender.status).toBe(400);
    expect(badSender.html).toMatch(/<input id="sender_id"[^>]*aria-invalid="true"/);
  });

  it('schedules a campaign and cancels it from its page, the credits back', async () => {
    const left = async () => (await t.request('GET', '/v1/billing', { key: m.testKey })).body.sms_left;
    const before = await left();
    const at = new Date(Date.now() + 2 * 3_600_000).toISOString().slice(0, 16); // Ghana time is UTC
    const shown = await preview({ send_at: at, name: 'Later' });
    expect(shown.html).toContain('Schedule to 2 recipients');
    const sent = await browser.go('POST', '/console/campaigns', {
      ...tokensOf(shown.html),
      ...form({ send_at: at, name: 'Later' }),
    });
    const id = sent.location?.split('/').pop() as string;
    expect(await left()).toBe(before - 2);
    const page = await browser.go('GET', `/console/campaigns/${id}`);
    expect(page.html).toContain('id="campaign-cancel"');
    const canceled = await browser.go(
      'POST',
      `/console/campaigns/${id}/cancel`,
      await browser.formTokens(`/console/campaigns/${id}`),
    );
    expect(canceled.status).toBe(303);
    expect(await apiCampaign(id)).toMatchObject({ status: 'canceled', counts: { CANCELED: 2 } });
    expect(await left()).toBe(before);
  });
});
