/**
 * The audience in a real browser (Debian's chromium through playwright-core): a CSV import with
 * its progress and errors, then a template with its live preview for a chosen contact. The
 * flow goes on to a campaign to the group with the template, previewed and sent, followed to its
 * counts and chart by carrier, and its CSV report downloaded (import → template → campaign →
 * report). It also takes the screenshots contacts.png, contact-import.png, templates.png,
 * campaign-preview.png and campaign.png: into a temporary folder in a test run, into
 * docs/screenshots/ for the README under `npm run screenshots`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describeBrowser, launchChromium, screenshotFolder } from '../support/browser';
import { createMerchant, Merchant } from '../support/merchant';
import { freePort, startTestApp, TestApp } from '../support/test-app';

// A slow, busy machine: generous limits everywhere, and waits on conditions, never on time.
jest.setTimeout(240_000);
const UI_TIMEOUT = 30_000;

describeBrowser('the audience in a browser: import, then a template', () => {
  let t: TestApp;
  let m: Merchant;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const files = mkdtempSync(join(tmpdir(), 'sms-wallet-audience-browser-'));

  const url = (path: string) => `${t.baseUrl}${path}`;
  const screenshots = screenshotFolder('audiences');
  const shot = async (name: string) => {
    await page.screenshot({ path: join(screenshots.dir, `${name}.png`), fullPage: true });
  };

  beforeAll(async () => {
    t = await startTestApp({
      port: await freePort(),
      env: { CONTACT_IMPORT_POLL_MS: '100', CAMPAIGN_POLL_MS: '100', TEST_DLR_DELAY_MS: '100' },
    });
    m = await createMerchant(t);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
    context.setDefaultTimeout(UI_TIMEOUT);
    context.setDefaultNavigationTimeout(UI_TIMEOUT * 2);
    page = await context.newPage();
    await page.goto(url('/console/signin'));
    await page.getByLabel('Email').fill(m.email);
    await page.getByLabel('Password').fill(m.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(url('/console'));
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await t?.close();
    rmSync(files, { recursive: true, force: true });
    screenshots.done();
  });

  it('creates a group from the Groups page', async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Groups' }).click();
    await page.getByLabel('Name').fill('JSS 2 parents');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.waitForURL(url('/console/groups'));
    await page.locator('#group-table').getByText('0 contacts').waitFor();
  });

  it('imports a CSV file into the group and follows its progress to the errors by line', async () => {
    const csv = join(files, 'parents.csv');
    writeFileSync(
      csv,
      [
        'phone_number,name,first_name,class',
        '0241110001,Ama Mensah,Ama,JSS 2',
        '0241110002,Kofi Boateng,Kofi,JSS 2',
        '0241110003,Efua Owusu,,JSS 2',
        'not a number,Nobody,,',
      ].join('\n'),
    );
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Contacts' }).click();
    await page.getByLabel('CSV file', { exact: true }).setInputFiles(csv);
    await page.getByLabel('Put everyone in a group (optional)').selectOption({ label: 'JSS 2 parents' });
    await page.getByRole('button', { name: 'Import' }).click();
    await page.waitForURL(/\/console\/contact-imports\/imp_/);
    // The page refreshes itself every 2 s until the import is done.
    await page.locator('#import-status', { hasText: 'Completed' }).waitFor({ timeout: 60_000 });
    expect(await page.locator('#import-counts').textContent()).toMatch(
      /3 contacts created[\s\S]*1 row refused/,
    );
    expect(await page.locator('#import-errors tbody tr').count()).toBe(1);
    expect(await page.locator('#import-errors').textContent()).toContain(
      'not a number is not a valid phone number',
    );
    await shot('contact-import');

    await page.getByRole('link', { name: 'See the contacts' }).click();
    await page.locator('#contact-table').getByText('Efua Owusu').waitFor();
    expect(await page.locator('#contact-table tbody tr').count()).toBe(3);
    await shot('contacts');
  });

  it('previews a template live for a chosen contact, with its segments and credits, and saves it', async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Templates' }).click();
    await page.getByLabel('Contact', { exact: true }).selectOption({ label: 'Efua Owusu (+233241110003)' });
    await page.getByLabel('Name', { exact: true }).fill('Term reminder');
    const message = page.getByLabel('Message');
    await message.fill('Dear {{first_name|Parent}}, {{class}} resumes on Monday.');
    // Rendered in the page as it is typed: Efua has no first_name, so the fallback.
    const text = page.locator('#template-preview [data-preview-text]');
    await page.waitForFunction(
      () =>
        (
          globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }
        ).document.querySelector('#template-preview [data-preview-text]')?.textContent ===
        'Dear Parent, JSS 2 resumes on Monday.',
    );
    expect(await page.locator('#template-cost').textContent()).toContain('1 segment · 1 credit');
    await page.getByLabel('Contact', { exact: true }).selectOption({ label: 'Kofi Boateng (+233241110002)' });
    expect(await text.textContent()).toBe('Dear Kofi, JSS 2 resumes on Monday.');
    await message.fill('Dear {{first_name}}, {{house}} {{class}} resumes on Monday.');
    expect(await page.locator('#template-preview [data-preview-problem]').textContent()).toContain('house');
    await message.fill(
      `Dear {{first_name|Parent}}, {{class}} resumes on Monday. ${'Bring your books. '.repeat(8)}`,
    );
    expect(await page.locator('#template-cost').textContent()).toContain('2 segments · 2 credits');
    await shot('templates');
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.waitForURL(url('/console/templates'));
    await page.locator('#template-table').getByText('Term reminder').waitFor();
  });

  it('sends the template to the group as a campaign, previewed first, and follows it to its report', async () => {
    // One more parent, on the sandbox number that always fails: the report and the retry have one.
    const groups = (await t.request('GET', '/v1/groups', { key: m.testKey })).body.data;
    const added = await t.request('POST', '/v1/contacts', {
      key: m.testKey,
      body: {
        phone_number: '+233200000002',
        name: 'Yaw Asante',
        fields: { first_name: 'Yaw', class: 'JSS 2' },
        groups: [groups[0].id],
      },
    });
    expect(added.status).toBe(200);

    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Campaigns' }).click();
    await page.getByRole('link', { name: 'New campaign' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Term reminder');
    await page.getByLabel(/JSS 2 parents/).check();
    await page.getByLabel('Sender ID').fill('School');
    await page.getByLabel('Template', { exact: true }).selectOption({ label: 'Term reminder' });
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.waitForURL(url('/console/campaigns/preview'));
    expect(await page.locator('#quote-summary').textContent()).toMatch(
      /4 recipients,\s*8 credits held at once, sent now/,
    );
    expect(await page.locator('#quote-samples tbody tr').count()).toBe(4);
    expect(await page.locator('#quote-samples').textContent()).toContain(
      'Dear Parent, JSS 2 resumes on Monday.',
    );
    await shot('campaign-preview');

    await page.getByRole('button', { name: 'Send to 4 recipients' }).click();
    await page.waitForURL(/\/console\/campaigns\/cmp_/);
    // The page refreshes itself while the campaign is sending.
    await page
      .locator('#campaign-progress', { hasText: '4 of 4 messages final' })
      .waitFor({ timeout: 60_000 });
    expect(await page.locator('#campaign-progress .status').textContent()).toBe('Completed');
    expect(await page.locator('svg[data-chart="campaign-carriers"] rect.bar-failed').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Retry the 1 failed or expired message' }).count()).toBe(1);
    await shot('campaign');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#campaign-report').click(),
    ]);
    const saved = join(files, 'report.csv');
    await download.saveAs(saved);
    const lines = readFileSync(saved, 'utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'message_id,to,name,status,carrier,segments,credits,error_code,created_at,final_at',
    );
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',').slice(1, 4).join(','))
        .sort(),
    ).toEqual([
      '+233200000002,Yaw Asante,FAILED',
      '+233241110001,Ama Mensah,DELIVERED',
      '+233241110002,Kofi Boateng,DELIVERED',
      '+233241110003,Efua Owusu,DELIVERED',
    ]);
  });
});
