import { ConsoleBrowser } from '../support/console-form';
import { createMerchant, Merchant } from '../support/merchant';
import { eventually, startTestApp, TestApp } from '../support/test-app';

/** The console's Contacts, Groups and Templates pages: the API's audience use cases, over HTTP. */
jest.setTimeout(120_000);

describe('console: Contacts, Groups, Templates', () => {
  let t: TestApp;
  let m: Merchant;
  let browser: ConsoleBrowser;

  beforeAll(async () => {
    t = await startTestApp({ env: { CONTACT_IMPORT_POLL_MS: '50' } });
    m = await createMerchant(t);
    browser = new ConsoleBrowser(t.baseUrl);
    await browser.signIn(m.email, m.password);
  });
  afterAll(() => t?.close());

  const post = async (path: string, form: Record<string, string>, from = '/console/contacts') =>
    browser.go('POST', path, { ...(await browser.formTokens(from)), ...form });
  const api = async (path: string) => (await t.request('GET', path, { key: m.testKey })).body;

  it('links the three pages from the navigation', async () => {
    const page = await browser.go('GET', '/console/contacts');
    expect(page.status).toBe(200);
    expect(page.html).toContain('<a href="/console/contacts" aria-current="page">Contacts</a>');
    expect(page.html).toContain('<a href="/console/groups">Groups</a>');
    expect(page.html).toContain('<a href="/console/templates">Templates</a>');
    expect(page.html).toContain('No contacts yet');
  });

  it('creates a group, adds a contact to it with fields, edits it (opt-out through the opt-out list), deletes it', async () => {
    expect((await post('/console/groups', { name: 'JSS 2 parents' }, '/console/groups')).status).toBe(303);
    const [group] = (await api('/v1/groups')).data;
    expect((await browser.go('GET', '/console/groups')).html).toMatch(/JSS 2 parents[\s\S]*?0 contacts/);

    const added = await post('/console/contacts', {
      phone_number: '+233241230001',
      name: 'Ama Mensah',
      fields: 'first_name=Ama\r\nclass=JSS 2\r\n',
      group: group.id,
    });
    expect(added.status).toBe(303);
    const id = added.location?.split('/').pop() as string;
    expect(await api(`/v1/contacts/${id}`)).toMatchObject({
      name: 'Ama Mensah',
      fields: { class: 'JSS 2', first_name: 'Ama' },
      groups: [group.id],
      opted_out: false,
    });
    expect((await browser.go('GET', '/console/groups')).html).toMatch(/JSS 2 parents[\s\S]*?1 contact</);

    const refused = await post('/console/contacts', { phone_number: '+233241230001' });
    expect(refused.status).toBe(409);
    expect(refused.html).toContain('already exists');
    const badField = await post('/console/contacts', {
      phone_number: '+233241230002',
      fields: 'no equals sign',
    });
    expect(badField.status).toBe(400);
    expect(badField.html).toContain('name=value');

    const edited = await post(
      `/console/contacts/${id}`,
      { phone_number: '+233241230001', name: 'Ama K. Mensah', fields: 'class=JSS 3', opted_out: 'on' },
      `/console/contacts/${id}`,
    );
    expect(edited.status).toBe(303);
    expect(await api(`/v1/contacts/${id}`)).toMatchObject({
      name: 'Ama K. Mensah',
      fields: { class: 'JSS 3' },
      groups: [],
      opted_out: true,
    });
    expect((await api('/v1/opt_outs')).data).toEqual([
      expect.objectContaining({ phone_number: '+233241230001', source: 'console' }),
    ]);
    const shown = await browser.go('GET', `/console/contacts/${id}`);
    expect(shown.html).toContain('Saved.');
    expect(shown.html).toContain('promotional messages and campaigns skip this number');

    expect((await post(`/console/contacts/${id}/delete`, {}, `/console/contacts/${id}`)).status).toBe(303);
    expect((await t.request('GET', `/v1/contacts/${id}`, { key: m.testKey })).status).toBe(404);
    expect((await post(`/console/groups/${group.id}/delete`, {}, '/console/groups')).status).toBe(303);
    expect((await api('/v1/groups')).data).toEqual([]);
  });

  it('imports a CSV file with a progress page and its errors by line, then searches the contacts', async () => {
    expect((await post('/console/groups', { name: 'Imported parents' }, '/console/groups')).status).toBe(303);
    const group = (await api('/v1/groups')).data.find((g: { name: string }) => g.name === 'Imported parents');
    const tokens = await browser.formTokens('/console/contacts');
    const uploaded = await browser.upload(
      '/console/contacts/import',
      { ...tokens, _once: tokens._once as string, group: group.id, default_country: 'GH' },
      {
        field: 'file',
        name: 'parents.csv',
        content:
          'phone,name,class\n0244440001,Kofi Boateng,JSS 1\n0244440002,Efua Owusu,JSS 2\nnot-a-number,X,\n',
      },
    );
    expect(uploaded.status).toBe(303);
    expect(uploaded.location).toMatch(/^\/console\/contact-imports\/imp_/);
    const page = await eventually(
      async () => {
        const p = await browser.go('GET', uploaded.location as string);
        return p.html.includes('id="import-status">Completed') ? p : undefined;
      },
      30_000,
      'the import page to say it is completed',
    );
    expect(page.html).toContain('<li>2 contacts created</li>');
    expect(page.html).toContain('<li>1 row refused</li>');
    expect(page.html).toContain('<strong>3</strong> of <strong>3 rows</strong> read.');
    expect(page.html).toMatch(
      /<td data-label="Line">4<\/td><td data-label="Problem">not-a-number is not a valid phone number/,
    );
    expect(page.html).not.toContain('(s)');
    const list = await browser.go('GET', '/console/contacts?search=kofi');
    expect(list.html).toContain('Kofi Boateng');
    expect(list.html).not.toContain('Efua Owusu');
    const inGroup = await browser.go('GET', `/console/contacts?group=${group.id}`);
    expect(inGroup.html).toContain('Efua Owusu');
    expect((await browser.go('GET', '/console/contacts')).html).toMatch(/Recent imports[\s\S]*?Completed/);
    expect((await browser.go('GET', '/console/contact-imports/imp_0000000000000000000000')).status).toBe(404);
  });

  it('saves a template with a preview for a chosen contact, its segments and credits; refuses a bad brace', async () => {
    const contact = (await api('/v1/contacts?search=kofi')).data[0];
    const page = await browser.go('GET', `/console/templates?contact=${contact.id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('src="/console/assets/template-preview.js"');
    expect(page.html).toMatch(
      new RegExp(`<option value="${contact.id}" data-contact="[^"]+" selected>Kofi Boateng`),
    );

    const saved = await post(
      '/console/templates',
      {
        name: 'Reminder',
        message: 'Dear {{name|Parent}}, {{class}} resumes Monday. {{house}}',
        contact: contact.id,
      },
      '/console/templates',
    );
    expect(saved.status).toBe(303);
    const listed = await browser.go('GET', `/console/templates?contact=${contact.id}`);
    expect(listed.html).toContain('Dear Kofi Boateng, JSS 1 resumes Monday.');
    expect(listed.html).toContain('(missing: house)');
    expect(listed.html).toContain('1 segment · 1 credit');

    const refused = await post(
      '/console/templates',
      { name: 'Bad', message: 'Dear {name}' },
      '/console/templates',
    );
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('a single &quot;{&quot;');
    expect((await api('/v1/templates')).data.map((x: { name: string }) => x.name)).toEqual(['Reminder']);
    const asset = await fetch(`${t.baseUrl}/console/assets/template-preview.js`);
    expect(asset.headers.get('content-type')).toContain('javascript');
  });
});
