/**
 * Password reset in a real browser (Debian's chromium through playwright-core): "Forgot password?"
 * on the sign-in page, the link from the mail a real SMTP server received, a new password, the old
 * session ended, and the low-balance banner on the way. Its screenshots go to a temporary folder,
 * or to docs/screenshots/ under `npm run screenshots`.
 */
import { CommandBus } from '@nestjs/cqrs';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { describeBrowser, launchChromium, screenshotFolder } from '../support/browser';
import { createMerchant } from '../support/merchant';
import { startSmtpServer, TestSmtpServer } from '../support/smtp-server';
import { freePort, startTestApp, TestApp } from '../support/test-app';
import { SetLowBalanceAlert } from '../../src/wallet/application/commands/set-low-balance-alert.command';

jest.setTimeout(240_000);
const UI_TIMEOUT = 30_000;

describeBrowser('password reset in a browser', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let browser: Browser;
  let context: BrowserContext;
  const screenshots = screenshotFolder('password-reset');
  const shots = screenshots.dir;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp({ port: await freePort(), env: { SMTP_URL: smtp.url, MAIL_POLL_MS: '50' } });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    context.setDefaultTimeout(UI_TIMEOUT);
    context.setDefaultNavigationTimeout(UI_TIMEOUT * 2);
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await t?.close();
    await smtp?.close();
    screenshots.done();
  });

  it('asks for a link, follows it from the mail, sets a new password and signs in with it', async () => {
    const m = await createMerchant(t, undefined, { approvedSenderIds: [] });
    // A session open elsewhere, which the reset must end; its wallet low enough for the banner.
    await t.app.get(CommandBus).execute(new SetLowBalanceAlert(m.wallets.TEST, 100));
    const other = await browser.newContext();
    const elsewhere = await other.newPage();
    await elsewhere.goto(`${t.baseUrl}/console/signin`);
    await elsewhere.fill('#email', m.email);
    await elsewhere.fill('#password', m.password);
    await elsewhere.click('button[type=submit]');
    await elsewhere.waitForURL(`${t.baseUrl}/console`);
    await elsewhere.locator('#low-balance-banner').waitFor();
    await elsewhere.screenshot({ path: join(shots, 'low-balance-banner.png'), fullPage: true });

    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/console/signin`);
    await page.click('text=Forgot password?');
    await page.waitForURL(/\/console\/forgot-password$/);
    await page.fill('#email', m.email);
    await page.click('button[type=submit]');
    await page.locator('#reset-sent').waitFor();
    expect(await page.locator('#reset-sent').textContent()).toContain('If an account uses');
    await page.screenshot({ path: join(shots, 'forgot-password-sent.png'), fullPage: true });

    const [mail] = await smtp.waitForMails(
      1,
      (x) => x.to.includes(m.email) && x.subject === 'Reset your password',
    );
    const link = /(http:\/\/\S+\/console\/reset-password\?token=\S+)/.exec(mail.decoded)![1];
    await page.goto(link);
    await page.fill('#password', 'a brand new passphrase');
    await page.screenshot({ path: join(shots, 'reset-password.png'), fullPage: true });
    await page.click('button[type=submit]');
    await page.locator('text=Your new password is set').waitFor();

    await page.fill('#email', m.email);
    await page.fill('#password', 'a brand new passphrase');
    await page.click('button[type=submit]');
    await page.waitForURL(`${t.baseUrl}/console`);

    // The session that was open elsewhere is over.
    await elsewhere.goto(`${t.baseUrl}/console`);
    await elsewhere.waitForURL(/\/console\/signin/);
    await other.close();
  });
});
