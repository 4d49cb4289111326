/**
 * The web console and the try-out page, driven in a real browser (Debian's chromium through
 * playwright-core). It takes the README's screenshots as it walks, into a temporary folder:
 * `npm test` leaves every tracked file as it was (the last test checks). `npm run screenshots`
 * (scripts/screenshots.js) runs this same walk with SCREENSHOTS_DIR=docs/screenshots to
 * regenerate the README's images.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { OPENAPI_TAGS } from '../../src/shared/http/openapi-tags';
import { formatTime } from '../../src/shared/wording';
import { describeBrowser, launchChromium, openOwnPage, screenshotFolder, SCREENSHOTS_DIR } from '../support/browser';
import { freePort, request, startTestApp, TestApp } from '../support/test-app';
import { trackedTreeState } from '../support/tracked-files';

// A slow, busy machine: generous limits everywhere, and waits on conditions, never on time.
jest.setTimeout(240_000);
const UI_TIMEOUT = 30_000;

/** The smallest text size of the overview's charts as drawn, in CSS pixels (font size × the SVG's scale). */
const smallestChartText = (p: Page) =>
  p.$$eval('svg.chart text', (texts) => {
    // In the page: the DOM's own types are not in this project's TypeScript library.
    const view = globalThis as unknown as { getComputedStyle(element: unknown): { fontSize: string } };
    return Math.min(
      ...texts.map((text) => {
        const scale = (text as unknown as { getScreenCTM(): { a: number } | null }).getScreenCTM()?.a ?? 0;
        return parseFloat(view.getComputedStyle(text).fontSize) * scale;
      }),
    );
  });

/**
 * Waits until the element shows `text`, across the page's own reloads (a page whose outcome is
 * not final refreshes itself every 2 s).
 */
async function waitForText(
  page: Page,
  selector: string,
  text: string | RegExp,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: string | null = null;
  while (Date.now() < deadline) {
    try {
      last = (await page.locator(selector).textContent({ timeout: 5_000 }))?.trim() ?? null;
      if (typeof text === 'string' ? last === text : last !== null && text.test(last)) return;
    } catch {
      /* the page was reloading: look again */
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(
    `${selector} still shows ${JSON.stringify(last)}, not ${String(text)}, after ${timeoutMs} ms`,
  );
}

describeBrowser('web console in a browser', () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const email = `console-${Date.now()}@example.com`;
  const password = 'correct horse battery staple';
  let mintedKey = '';
  let screenshots: ReturnType<typeof screenshotFolder>;
  /** The working tree before the walk, compared by the last test. */
  let treeBefore = '';

  const url = (path: string) => `${t.baseUrl}${path}`;
  const shot = async (name: string, target: Page = page) => {
    await target.screenshot({ path: join(screenshots.dir, `${name}.png`), fullPage: true });
  };
  const smsLeft = async () =>
    Number((await page.locator('#sms-left').first().textContent())?.trim().replace(/,/g, ''));

  beforeAll(async () => {
    treeBefore = trackedTreeState();
    screenshots = screenshotFolder('console');
    t = await startTestApp({ port: await freePort(), env: { TEST_DLR_DELAY_MS: '50' } });
    browser = await launchChromium();
    // A phone-sized screen: the console must be usable there.
    context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
    context.setDefaultTimeout(UI_TIMEOUT);
    context.setDefaultNavigationTimeout(UI_TIMEOUT * 2);
    page = await context.newPage();
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await t?.close();
    screenshots?.done();
  });

  it('sends a signed-out visitor to sign in, and / to the console', async () => {
    await page.goto(url('/'));
    await page.waitForURL(/\/console\/signin/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in');
  });

  it('signs up and lands on the overview with 100 free TEST credits', async () => {
    await page.goto(url('/console/signup'));
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(url('/console'));
    expect(await smsLeft()).toBe(100);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'sms_console_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  });

  it('mints a TEST key shown once; the key works over the API; a reload does not show it again', async () => {
    await page.goto(url('/console/keys'));
    await page.getByLabel('Name').fill('Shop server');
    await page.getByLabel('Environment').selectOption('TEST');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.waitForURL(url('/console/keys'));
    const keyField = page.getByTestId('new-key');
    mintedKey = await keyField.inputValue();
    expect(mintedKey).toMatch(/^sms_test_[0-9A-Za-z]{32,}$/);
    await expect(page.getByText('you will not see it again', { exact: false }).isVisible()).resolves.toBe(
      true,
    );
    await expect(page.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(true);

    const billing = await request(t.baseUrl, 'GET', '/v1/billing', { key: mintedKey });
    expect(billing.status).toBe(200);
    expect(billing.body).toMatchObject({ environment: 'TEST', sms_left: 100 });

    await page.reload();
    await expect(page.getByTestId('new-key').count()).resolves.toBe(0);
    expect(await page.content()).not.toContain(mintedKey);
    const row = page.locator('tr', { hasText: 'Shop server' });
    expect(await row.textContent()).toContain(mintedKey.slice(-4));
    expect(await row.textContent()).toContain('TEST');
  });

  it('takes a screenshot of the keys page with a throwaway key shown once', async () => {
    await page.getByLabel('Name').fill('Screenshot (revoked)');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.waitForURL(url('/console/keys'));
    await page.getByTestId('new-key').waitFor();
    await shot('keys');
    await page
      .locator('tr', { hasText: 'Screenshot (revoked)' })
      .getByRole('button', { name: /Revoke/ })
      .click();
    await page.waitForURL(url('/console/keys'));
    await page
      .locator('tr', { hasText: 'Screenshot (revoked)' })
      .getByText('Revoked', { exact: true })
      .waitFor();
  });

  it('sends from the console to +233200000001 and watches it reach DELIVERED', async () => {
    await page.goto(url('/console/send'));
    await page.getByLabel('To', { exact: true }).fill('+233200000001');
    await page.getByLabel('Sender ID').fill('MyShop');
    await page.getByLabel('Message').fill('Your order #42 is ready');
    await shot('send');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/console\/messages\/msg_/);
    // The page refreshes itself (meta refresh) until the outcome is final.
    await waitForText(page, '#message-status', 'DELIVERED');
    expect(await page.locator('#dlr').textContent()).toContain('DELIVRD');
    await shot('message');
    // Delivered: the reserved credit is captured; the overview shows the message.
    await page.goto(url('/console'));
    expect(await smsLeft()).toBe(99);
    expect(await page.locator('table.stack').textContent()).toContain('+233200000001');
    // Every chart's text stays readable at phone width.
    expect(await smallestChartText(page)).toBeGreaterThanOrEqual(11);
    await shot('overview');
  });

  it('counts characters, encoding, segments and credits as the merchant types, as the quote API does', async () => {
    await page.goto(url('/console/send'));
    await page.getByLabel('To', { exact: true }).fill('+233200000001');
    await page.getByLabel('Sender ID').fill('MyShop');
    const message = page.getByLabel('Message');
    const counter = page.getByTestId('message-cost');
    await message.fill('');
    await message.pressSequentially('Hello Ama');
    await waitForText(page, '#message-cost', '9 characters · GSM-7 · 1 segment · 1 credit');
    expect(await counter.getAttribute('data-segments')).toBe('1');
    // An emoji turns the message into UCS-2, and the counter names it.
    await message.focus();
    await page.keyboard.insertText(' 🎉');
    await waitForText(
      page,
      '#message-cost',
      '11 characters · UCS-2 · 1 segment · 1 credit. UCS-2 because of “🎉”',
    );
    expect(await counter.getAttribute('data-encoding')).toBe('UCS-2');
    // The same emoji on a 150-character message: 1 credit in GSM-7 becomes 3 in UCS-2.
    const long = `${'Your order is ready. '.repeat(7)}Thanks`;
    await message.fill(long);
    await waitForText(page, '#message-cost', '153 characters · GSM-7 · 1 segment · 1 credit');
    await page.keyboard.insertText('🎉');
    await waitForText(page, '#message-cost', /^154 characters · UCS-2 · 3 segments · 3 credits/);
    await shot('send-cost');
    const typed = await message.inputValue();
    const quote = await request(t.baseUrl, 'POST', '/v1/messages/quote', {
      key: mintedKey,
      body: { to: '+233200000001', sender_id: 'MyShop', message: typed, type: 'transactional' },
    });
    expect(quote.status).toBe(200);
    expect({
      encoding: await counter.getAttribute('data-encoding'),
      segments: Number(await counter.getAttribute('data-segments')),
      credits: Number(await counter.getAttribute('data-credits')),
    }).toEqual({ encoding: quote.body.encoding, segments: quote.body.segments, credits: quote.body.credits });
    // Sent, the server's page shows the same cost.
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/console\/messages\/msg_/);
    expect(await page.locator('dt:text-is("Encoding") + dd').textContent()).toBe(
      `${quote.body.encoding}, ${quote.body.segments} segment${quote.body.segments === 1 ? '' : 's'}, ${quote.body.credits} credit${quote.body.credits === 1 ? '' : 's'}`,
    );
  });

  it('with scripts off, a refused send form shows the cost of what was typed, from the server', async () => {
    const noScript = await browser.newContext({
      viewport: { width: 390, height: 844 },
      javaScriptEnabled: false,
      storageState: await context.storageState(),
    });
    noScript.setDefaultTimeout(UI_TIMEOUT);
    try {
      const p = await noScript.newPage();
      await p.goto(url('/console/send'));
      await p.getByLabel('To', { exact: true }).fill('+2331');
      await p.getByLabel('Sender ID').fill('MyShop');
      await p.getByLabel('Message').fill('Akwaaba 😀');
      await p.getByRole('button', { name: 'Send' }).click();
      await p.locator('#send-error').waitFor();
      expect(await p.getByTestId('message-cost').textContent()).toBe(
        '9 characters · UCS-2 · 1 segment · 1 credit. UCS-2 because of “😀”',
      );
    } finally {
      await noScript.close();
    }
  });

  it('a send form submitted twice (and again after the answer) sends one message and charges once', async () => {
    await page.goto(url('/console/send'));
    const before = await smsLeft();
    await page.getByLabel('To', { exact: true }).fill('+233200000001');
    await page.getByLabel('Sender ID').fill('MyShop');
    await page.getByLabel('Message').fill('Double-submitted order #43');
    // What a double click sends when the page's script is slow or off: the same form, twice at
    // once (console.js disabling the button is a courtesy, not the guarantee).
    const landed = await page.evaluate<string[]>(`(async () => {
      const form = document.querySelector('form[action="/console/send"]');
      const body = new URLSearchParams(new FormData(form));
      const post = () => fetch(form.action, { method: 'POST', body }).then((r) => r.url);
      return Promise.all([post(), post()]);
    })()`);
    // And the real button, on the very page whose form was just sent twice.
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/console\/messages\/msg_/);
    expect(landed[0]).toMatch(/\/console\/messages\/msg_/);
    expect(landed[1]).toBe(landed[0]);
    expect(page.url()).toBe(landed[0]);
    await page.goto(url('/console/messages'));
    expect(await page.locator('tr', { hasText: 'Double-submitted order #43' }).count()).toBe(1);
    await page.goto(url('/console/send'));
    expect(await smsLeft()).toBe(before - 1);
  });

  it('renders a message body containing <script> as text, and runs no script', async () => {
    const body = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">';
    await page.goto(url('/console/send'));
    await page.getByLabel('To', { exact: true }).fill('+233200000001');
    await page.getByLabel('Sender ID').fill('MyShop');
    await page.getByLabel('Message').fill(body);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/console\/messages\/msg_/);
    expect(await page.locator('#message-body').textContent()).toBe(body);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(await page.locator('#message-body script, #message-body img').count()).toBe(0);
    await page.goto(url('/console/messages'));
    expect(await page.locator('table').textContent()).toContain('<script>');
    expect(await page.evaluate('window.__xss')).toBeUndefined();
  });

  it('buys a package through the hosted checkout page and sees sms_left grow', async () => {
    await page.goto(url('/console/billing'));
    const before = await smsLeft();
    await shot('buy-credits');
    const firstPackage = page.locator('form.package').first();
    const credits = Number(
      (await firstPackage.textContent())?.match(/([\d,]+) SMS credits/)?.[1].replace(/,/g, ''),
    );
    expect(credits).toBeGreaterThan(0);
    await firstPackage.getByRole('button', { name: /^Buy/ }).click();
    await page.waitForURL(/\/checkout\/chk_/);
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.waitForURL(/\/console\/billing\/return\?checkout_id=chk_/, { timeout: 60_000 });
    await waitForText(page, '#checkout-status', 'succeeded');
    expect(Number((await page.locator('#checkout-sms').textContent())?.replace(/,/g, ''))).toBe(credits);
    expect(await smsLeft()).toBe(before + credits);
    await page.goto(url('/console'));
    expect(await smsLeft()).toBe(before + credits);
  });

  it('lists the wallet history for auditors', async () => {
    await page.goto(url('/console/wallet'));
    const text = await page.locator('table').textContent();
    for (const type of ['WalletOpened', 'CreditsAdded', 'CreditsReserved', 'ReservationCaptured'])
      expect(text).toContain(type);
  });

  it('sends to many from a CSV file: every row priced first, then one batch and its progress', async () => {
    const csv = [
      'to,message',
      '+233200000001,"Hello Ama, your order #42 is ready"',
      '+233200000002',
      '+23324,Not a number',
      '+233200000001',
    ].join('\n');
    await page.goto(url('/console/send-many'));
    const before = await smsLeft();
    await page.getByLabel('Sender ID').fill('MyShop');
    await page.getByLabel('Message for rows without one (optional)').fill('Your order is on its way');
    await page.setInputFiles('#file', {
      name: 'customers.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await shot('send-many');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.waitForURL(/\/console\/send-many\/preview/);
    expect(await page.locator('#preview-summary').textContent()).toMatch(/3 messages to send for 3 credits/);
    expect(await page.locator('#preview-rows tr.refused').textContent()).toContain('Not sent: to must be');
    expect(await smsLeft()).toBe(before); // a preview reserves nothing
    await shot('send-many-preview');
    await page.getByRole('button', { name: 'Send 3 messages' }).click();
    await page.waitForURL(/\/console\/batches\/bat_/);
    // The page refreshes itself until every message of the batch is final.
    await waitForText(page, '#batch-progress', /^3 of 3 messages final; 1 refused/);
    expect(await page.locator('#status-counts').textContent()).toMatch(/DELIVERED\s+2[\s\S]*FAILED\s+1/);
    expect(await page.locator('#batch-refusals').textContent()).toContain('messages[2].to');
    await shot('batch');
  });

  it('schedules a message for later and cancels it from its page, with its credit back', async () => {
    await page.goto(url('/console/send'));
    const before = await smsLeft();
    await page.getByLabel('To', { exact: true }).fill('+233200000001');
    await page.getByLabel('Sender ID').fill('MyShop');
    await page.getByLabel('Message', { exact: true }).fill('Your appointment is tomorrow at nine');
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 11) + '09:00';
    await page.getByLabel('Send at (optional)').fill(tomorrow);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/console\/messages\/msg_/);
    expect(await page.locator('#message-status').textContent()).toBe('SCHEDULED');
    // Shown in the console's one format (Ghana time, named in the footer).
    expect(await page.locator('#send-at').textContent()).toContain(formatTime(`${tomorrow}:00Z`));
    await shot('scheduled');
    await page.getByRole('button', { name: 'Cancel this message' }).click();
    await waitForText(page, '#message-status', 'CANCELED');
    expect(await page.locator('#cancel-message').count()).toBe(0);
    await page.goto(url('/console'));
    expect(await smsLeft()).toBe(before);
  });

  it('shows the overview charts at desktop width, with their numbers as tables', async () => {
    const desktop = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      deviceScaleFactor: 1,
      storageState: await context.storageState(),
    });
    desktop.setDefaultTimeout(UI_TIMEOUT);
    try {
      const p = await desktop.newPage();
      await p.goto(url('/console'));
      const today = new Date().toISOString().slice(0, 10);
      const delivered = await p
        .locator(`rect[data-day="${today}"][data-bucket="delivered"]`)
        .getAttribute('data-count');
      expect(Number(delivered)).toBeGreaterThan(0);
      expect(
        await p
          .locator(
            `[data-testid="messages-per-day-table"] tr[data-day="${today}"] td[data-bucket="delivered"]`,
          )
          .textContent(),
      ).toBe(delivered);
      expect(await smallestChartText(p)).toBeGreaterThanOrEqual(11);
      await shot('overview-desktop', p);
    } finally {
      await desktop.close();
    }
  });

  it('revokes the key, and the API refuses it', async () => {
    await page.goto(url('/console/keys'));
    await page
      .locator('tr', { hasText: 'Shop server' })
      .getByRole('button', { name: /Revoke/ })
      .click();
    await page.waitForURL(url('/console/keys'));
    await page.locator('tr', { hasText: 'Shop server' }).getByText('Revoked', { exact: true }).waitFor();
    const refused = await request(t.baseUrl, 'GET', '/v1/billing', { key: mintedKey });
    expect(refused.status).toBe(401);
  });

  it('refuses a form posted without the CSRF token with a 403 page', async () => {
    const status = await page.evaluate(async () => {
      const response = await fetch('/console/keys', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'name=forged&environment=TEST',
      });
      return { status: response.status, text: await response.text() };
    });
    expect(status.status).toBe(403);
    expect(status.text).toContain('This form has expired');
    // Removing the hidden field from a real form gives the same refusal, as a page.
    await page.goto(url('/console/keys'));
    await page
      .locator('form[action="/console/keys"] input[name="_csrf"]')
      .evaluate((input) => input.remove());
    await page.getByLabel('Name').fill('forged');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/console/keys') && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Create key' }).click(),
    ]);
    expect(response.status()).toBe(403);
    await page.getByRole('heading', { name: 'This form has expired' }).waitFor();
    await page.goto(url('/console/keys'));
    expect(await page.locator('tr', { hasText: 'forged' }).count()).toBe(0);
  });

  it('signs out, and the old session no longer opens the console', async () => {
    const before = (await context.cookies()).find((c) => c.name === 'sms_console_session')!;
    await page.goto(url('/console'));
    await page.getByRole('button', { name: /Sign out/ }).click();
    await page.waitForURL(/\/console\/signin/);
    // Replaying the old cookie: the server ended the session.
    const replay = await fetch(url('/console'), {
      headers: { cookie: `sms_console_session=${before.value}` },
      redirect: 'manual',
    });
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toMatch(/^\/console\/signin/);
  });

  it('the try-out works signed out and shows the outcome until final', async () => {
    const visitor = await browser.newContext({ viewport: { width: 390, height: 844 } });
    visitor.setDefaultTimeout(UI_TIMEOUT);
    try {
      const p = await visitor.newPage();
      await p.goto(url('/try'));
      await p.getByLabel('+233200000002').check();
      await p.getByLabel('Message').fill('Hello from the try-out');
      await shot('try', p);
      await p.getByRole('button', { name: 'Send test message' }).click();
      await p.waitForURL(/\/try\/messages\/msg_/);
      await waitForText(p, '#message-status', 'FAILED');
      expect(await p.locator('#dlr').textContent()).toContain('undeliverable');
    } finally {
      await visitor.close();
    }
  });

  it('answers console errors as HTML pages, and keeps JSON for the API', async () => {
    const missing = await fetch(url('/console/no-such-page'));
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('text/html');
    const api = await fetch(url('/v1/no-such-thing'));
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toContain('application/json');
  });

  it('pauses sign-in after 5 failures for an email from one address (429 with Retry-After)', async () => {
    const own = await openOwnPage(browser, { viewport: { width: 390, height: 844 } }, UI_TIMEOUT);
    const p = own.page;
    let step = 'start';
    try {
      const submit = async (attempt: string) => {
        step = `${attempt}: the sign-in page`;
        await p.goto(url('/console/signin'));
        step = `${attempt}: the form`;
        await p.getByLabel('Email').fill(email);
        await p.getByLabel('Password').fill(attempt === 'right password' ? password : `wrong password ${attempt}`);
        step = `${attempt}: the answer`;
        // The answer itself, so that a failure says what came back instead of waiting for text.
        const [answer] = await Promise.all([
          p.waitForResponse((r) => r.url().endsWith('/console/signin') && r.request().method() === 'POST'),
          p.getByRole('button', { name: 'Sign in' }).click(),
        ]);
        return answer;
      };
      for (let i = 0; i < 5; i++) {
        const refused = await submit(`failure ${i + 1}`);
        expect({ attempt: i, status: refused.status() }).toEqual({ attempt: i, status: 200 });
        step = `failure ${i + 1}: the refusal shown`;
        await p.getByText('do not match').waitFor();
      }
      const response = await submit('right password');
      expect(response.status()).toBe(429);
      expect(Number(response.headers()['retry-after'])).toBeGreaterThan(0);
    } catch (error) {
      throw new Error(`at ${step}: ${(error as Error).message}`);
    } finally {
      await own.close();
    }
  });

  it('shows the API reference (/docs) with the messages group first', async () => {
    const p = await context.newPage();
    try {
      await p.goto(url('/docs'));
      const groups = p.locator('.opblock-tag');
      await groups.first().waitFor();
      const shown = await groups.evaluateAll((tags) => tags.map((tag) => tag.getAttribute('data-tag')));
      expect(shown).toEqual(OPENAPI_TAGS.map((tag) => tag.name));
      expect(shown[0]).toBe('messages');
    } finally {
      await p.close();
    }
  });

  it('leaves every tracked file as it was: the screenshots went to a temporary folder', () => {
    if (SCREENSHOTS_DIR) {
      console.warn(`Tree check skipped: SCREENSHOTS_DIR=${SCREENSHOTS_DIR} asks for the README's images`);
      return;
    }
    expect(existsSync(join(screenshots.dir, 'overview.png'))).toBe(true);
    expect(trackedTreeState()).toBe(treeBefore);
  });
});
