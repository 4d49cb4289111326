import { ConsoleBrowser } from '../support/console-form';
import { createMerchant, Merchant } from '../support/merchant';
import { finalState, SANDBOX, send } from '../support/messaging';
import { startTestApp, TestApp } from '../support/test-app';

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
/** One format for every time: "25 Nov 2026, 14:05". */
const SHOWN_TIME = /\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, \d{2}:\d{2}\b/;

describe('console: words and times as people read them', () => {
  let t: TestApp;
  let m: Merchant;
  let browser: ConsoleBrowser;
  let messageId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { TEST_DLR_DELAY_MS: '50' } });
    m = await createMerchant(t);
    browser = new ConsoleBrowser(t.baseUrl);
    await browser.signIn(m.email, m.password);
  });
  afterAll(() => t?.close());

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
      expect({ path, plural: /\w\(s\)/.exec(text)?.[0] ?? null }).toEqual({ path, plural: null });
      expect({ path, isoTime: ISO_TIME.exec(text)?.[0] ?? null }).toEqual({ path, isoTime: null });
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

  it('serves a favicon and keeps Sign out apart from the e-mail', async () => {
    const page = await browser.go('GET', '/console');
    expect(page.html).toContain('<link rel="icon" href="/console/assets/favicon.svg"');
    const icon = await fetch(`${t.baseUrl}/console/assets/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(page.html).toMatch(/<button type="submit" class="link">Sign out<\/button>/);
  });
});
