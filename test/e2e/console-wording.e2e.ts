import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConsoleBrowser } from '../support/console-form';
import { startCheckout } from '../support/hosted-checkout';
import { createMerchant, Merchant } from '../support/merchant';
import { finalState, SANDBOX, send } from '../support/messaging';
import { startTestApp, TestApp } from '../support/test-app';
import { WalletService } from '../../src/wallet/application/wallet.service';

/**
 * The text a person reads: tags, scripts and attribute values (a `datetime`, an id in a link) left
 * out, and the wallet history's events, which are shown as the raw JSON auditors replay.
 */
const visibleText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<pre[\s\S]*?<\/pre>/g, ' ')
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#?\w+;/g, ' ');

const ISO_TIME = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;
/** A raw ISO day or month ("2026-11-25", "2026-11") where a person reads a date. */
const ISO_DATE = /\b\d{4}-\d{2}(-\d{2})?\b/;
/** One of a thing, said as many: "1 credits", "1 messages". */
const ONE_AS_MANY =
  /(?<![\d,.])1 (credits|messages|segments|rows|recipients|characters|keys|numbers|days|minutes|seconds|mails|attempts|events|carriers|entries|files|SMS credits)\b/;

/** What no page may show a person: "(s)" plurals, one as many, raw ISO times and days. */
function wordingProblems(path: string, html: string) {
  const text = visibleText(html);
  return {
    path,
    plural: /\w\(s\)/.exec(text)?.[0] ?? null,
    oneAsMany: ONE_AS_MANY.exec(text)?.[0] ?? null,
    isoTime: ISO_TIME.exec(text)?.[0] ?? ISO_DATE.exec(text)?.[0] ?? null,
  };
}
const NO_PROBLEM = (path: string) => ({ path, plural: null, oneAsMany: null, isoTime: null });
/** One format for every time: "25 Nov 2026, 14:05". */
const SHOWN_TIME = /\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, \d{2}:\d{2}\b/;

describe('console: words and times as people read them', () => {
  let t: TestApp;
  let m: Merchant;
  let browser: ConsoleBrowser;
  let messageId: string;
  let packagesDir = '';

  beforeAll(async () => {
    // A one-credit package among the usual ones: the billing page must say "1 SMS credit".
    packagesDir = mkdtempSync(join(tmpdir(), 'wording-packages-'));
    const packages = join(packagesDir, 'packages.json');
    writeFileSync(
      packages,
      JSON.stringify([
        { id: 'pkg_single', name: 'Single', amount: 10, currency: 'GHS', sms: 1 },
        { id: 'pkg_starter', name: 'Starter', amount: 5000, currency: 'GHS', sms: 1000 },
      ]),
    );
    t = await startTestApp({ env: { TEST_DLR_DELAY_MS: '50', PACKAGES_FILE: packages } });
    m = await createMerchant(t);
    browser = new ConsoleBrowser(t.baseUrl);
    await browser.signIn(m.email, m.password);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(packagesDir, { recursive: true, force: true });
  });

  it('tells a new merchant where to start instead of drawing empty charts', async () => {
    const overview = await browser.go('GET', '/console');
    expect(overview.status).toBe(200);
    expect(overview.html).toContain('id="first-steps"');
    expect(overview.html).toContain('href="/console/keys"');
    expect(overview.html).toContain('+233200000001');
    expect(overview.html).toContain('href="/console/billing"');
    expect(overview.html).not.toContain('data-chart="messages-per-day"');
    // No card is a bare wallet id.
    expect(visibleText(overview.html)).not.toMatch(/\bwal_\w+/);
  });

  it('says "1 credit" and "2 segments", never "(s)", and every time in one format, on every page', async () => {
    const one = await send(t, m.testKey, { to: SANDBOX.delivered, message: 'Hello' });
    messageId = one.body.id;
    await finalState(t, m.testKey, messageId);
    const long = await send(t, m.testKey, { to: SANDBOX.delivered, message: 'x'.repeat(200) });
    await finalState(t, m.testKey, long.body.id);

    const pages = [
      '/console',
      '/console/messages',
      `/console/messages/${messageId}`,
      `/console/messages/${long.body.id}`,
      '/console/keys',
      '/console/wallet',
      '/console/webhooks',
      '/console/compliance',
      '/console/send',
      '/console/send-many',
      '/console/billing',
    ];
    for (const path of pages) {
      const page = await browser.go('GET', path);
      expect({ path, status: page.status }).toEqual({ path, status: 200 });
      const text = visibleText(page.html);
      expect(wordingProblems(path, page.html)).toEqual(NO_PROBLEM(path));
      // The zone is named once, in the footer of every page.
      expect(text.match(/Ghana time \(GMT\)/g)?.length ?? 0).toBeGreaterThanOrEqual(1);
    }

    const single = visibleText((await browser.go('GET', `/console/messages/${messageId}`)).html);
    expect(single).toMatch(/GSM-7, 1 segment, 1 credit\b/);
    expect(single).toMatch(SHOWN_TIME);
    expect(single).toContain('Transactional');
    // The status is shown once, not again as the delivery report's "Outcome".
    expect(single.match(/\bDELIVERED\b/g)).toHaveLength(1);
    const double = visibleText((await browser.go('GET', `/console/messages/${long.body.id}`)).html);
    expect(double).toMatch(/GSM-7, 2 segments, 2 credits\b/);
  });

  it('shows the overview with whole-number gridlines and the delivery rate overall', async () => {
    const overview = await browser.go('GET', '/console');
    expect(overview.html).not.toContain('id="first-steps"');
    const svg = /<svg[^>]*data-chart="messages-per-day"[\s\S]*?<\/svg>/.exec(overview.html)![0];
    const labels = [...svg.matchAll(/<text class="axis"[^>]*text-anchor="end">([^<]*)</g)].map((x) => x[1]);
    expect(labels).toEqual(['0', '1', '2']);
    expect(overview.html).toMatch(/id="delivery-overall">100%</);
    expect(visibleText(overview.html)).toMatch(/\b2\s+messages sent/);
  });

  it('words the other pages the same way: batch, statement, checkout return, try-out, sign-in', async () => {
    const batch = await t.request('POST', '/v1/messages/batch', {
      key: m.testKey,
      body: {
        sender_id: 'MyShop',
        type: 'transactional',
        message: 'Sale',
        messages: [{ to: SANDBOX.delivered }],
      },
    });
    expect(batch.status).toBe(200);
    const checkout = await startCheckout(t, m.testKey);
    const tried = await t.request('POST', '/v1/sandbox/messages', {
      body: { to: SANDBOX.delivered, sender_id: 'TryOut', message: 'Hi', type: 'transactional' },
    });
    expect(tried.status).toBe(200);
    const signedIn = [
      `/console/batches/${batch.body.id}`,
      '/console/statement',
      `/console/billing/return?checkout_id=${checkout.id}`,
    ];
    for (const path of signedIn) {
      const page = await browser.go('GET', path);
      expect({ path, status: page.status }).toEqual({ path, status: 200 });
      expect(wordingProblems(path, page.html)).toEqual(NO_PROBLEM(path));
      expect(visibleText(page.html)).toContain('Ghana time (GMT)');
    }
    const visitor = new ConsoleBrowser(t.baseUrl);
    for (const path of [
      '/try',
      `/try/messages/${tried.body.id}`,
      '/console/signin',
      '/console/signup',
      '/console/forgot-password',
    ]) {
      const page = await visitor.go('GET', path);
      expect({ path, status: page.status }).toEqual({ path, status: 200 });
      expect(wordingProblems(path, page.html)).toEqual(NO_PROBLEM(path));
    }
    expect(visibleText((await browser.go('GET', '/console/billing')).html)).toMatch(/\b1 SMS credit\b(?!s)/);
    // The statement's month and days as dates, never "2026-11".
    const statement = visibleText((await browser.go('GET', '/console/statement')).html);
    expect(statement).toMatch(
      /\b(January|February|March|April|May|June|July|August|September|October|November|December) \d{4}\b/,
    );
  });

  it('words the audience and campaign pages the same way: "1 contact", "1 recipient", formatted numbers', async () => {
    const api = async (method: string, path: string, body?: unknown) =>
      (await t.request(method, path, { key: m.testKey, ...(body === undefined ? {} : { body }) })).body;
    const group = await api('POST', '/v1/groups', { name: 'Wording' });
    const contact = await api('POST', '/v1/contacts', {
      phone_number: '+233241236001',
      name: 'Ama',
      fields: { first_name: 'Ama' },
      groups: [group.id],
    });
    await api('POST', '/v1/templates', { name: 'T', message: 'Dear {{first_name}}' });
    const campaign = await api('POST', '/v1/campaigns', {
      name: 'One',
      sender_id: 'MyShop',
      type: 'transactional',
      message: 'Dear {{first_name}}',
      audience: { groups: [group.id] },
    });
    const paths = [
      '/console/contacts',
      `/console/contacts/${contact.id}`,
      '/console/groups',
      '/console/templates',
      '/console/campaigns',
      '/console/campaigns/new',
      `/console/campaigns/${campaign.id}`,
    ];
    for (const path of paths) {
      const page = await browser.go('GET', path);
      expect({ path, status: page.status }).toEqual({ path, status: 200 });
      expect(wordingProblems(path, page.html)).toEqual(NO_PROBLEM(path));
    }
    expect(visibleText((await browser.go('GET', '/console/groups')).html)).toMatch(/\b1 contact\b(?!s)/);
    expect(visibleText((await browser.go('GET', `/console/campaigns/${campaign.id}`)).html)).toMatch(
      /\bof\s+1 message\s+final/,
    );
    const preview = await browser.go('POST', '/console/campaigns/preview', {
      _csrf: await browser.csrf('/console/campaigns/new'),
      name: 'One',
      sender_id: 'MyShop',
      type: 'transactional',
      groups: group.id,
      message: 'Dear {{first_name}}',
      template_id: '',
      send_at: '',
    });
    expect(wordingProblems('campaign preview', preview.html)).toEqual(NO_PROBLEM('campaign preview'));
    expect(visibleText(preview.html)).toMatch(/\b1 recipient\b(?!s)\s*,\s*1 credit\b(?!s)\s+held at once/);
  });

  it('shows a wallet id only where a sentence says what it is, never as a card of its own', async () => {
    const pages = [
      '/console',
      '/console/messages',
      '/console/keys',
      '/console/billing',
      '/console/statement',
      '/console/send',
    ];
    for (const path of pages) {
      const text = visibleText((await browser.go('GET', path)).html);
      expect({ path, walletId: /\bwal_\w+/.exec(text)?.[0] ?? null }).toEqual({ path, walletId: null });
    }
    // The history for auditors names it, in a sentence about it.
    expect(visibleText((await browser.go('GET', '/console/wallet')).html)).toMatch(
      /your TEST wallet\s+wal_\w+/,
    );
  });

  it('says in a line what a batch of settlements did on the wallet history, its entries folded', async () => {
    // A merchant of its own: another test's settlement still waiting would join the batch.
    const own = await createMerchant(t);
    const ownBrowser = new ConsoleBrowser(t.baseUrl);
    await ownBrowser.signIn(own.email, own.password);
    const wallets = t.app.get(WalletService);
    for (const [id, sms] of [
      ['msg_hist1', 1],
      ['msg_hist2', 2],
      ['msg_hist3', 1],
    ] as const)
      expect((await wallets.reserve(own.wallets.TEST, id, sms)).ok).toBe(true);
    await Promise.all([
      wallets.capture(own.wallets.TEST, 'msg_hist1'),
      wallets.capture(own.wallets.TEST, 'msg_hist2'),
      wallets.release(own.wallets.TEST, 'msg_hist3', 'message failed'),
    ]);
    let html = '';
    for (let after: number | null = null; ;) {
      const page = await ownBrowser.go(
        'GET',
        after === null ? '/console/wallet' : `/console/wallet?after=${after}`,
      );
      html += page.html;
      const next = /href="\/console\/wallet\?after=(\d+)" rel="next"/.exec(page.html);
      if (!next) break;
      after = Number(next[1]);
    }
    expect(visibleText(html)).toContain(
      '2 messages delivered, 3 credits spent; 1 message not delivered, 1 credit given back',
    );
    expect(html).toMatch(/<details><summary>Each message<\/summary><pre>[^<]*msg_hist3/);
    expect(wordingProblems('/console/wallet', html)).toEqual(NO_PROBLEM('/console/wallet'));
  });

  it('serves a favicon and keeps Sign out apart from the e-mail', async () => {
    const page = await browser.go('GET', '/console');
    expect(page.html).toContain('<link rel="icon" href="/console/assets/favicon.svg"');
    const icon = await fetch(`${t.baseUrl}/console/assets/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(page.html).toMatch(/<button type="submit" class="link">Sign out<\/button>/);
  });
});
