/**
 * Teams in a real browser (Debian's chromium through playwright-core; API.md, "Teams"; issue 33):
 * the owner invites a viewer by e-mail from the Members page, the mail reaches a real SMTP server
 * started here, the viewer follows its link, sets a password and lands in the account, sees no form
 * to mint a key, and posting that form anyway is refused with 403. Screenshots go to a temporary
 * folder only.
 */
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { describeBrowser, launchChromium, screenshotFolder } from '../support/browser';
import { createMerchant } from '../support/merchant';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server';
import { freePort, startTestApp, type TestApp } from '../support/test-app';

jest.setTimeout(240_000);
const UI_TIMEOUT = 30_000;

describeBrowser('teams in a browser', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let browser: Browser;
  const screenshots = screenshotFolder('teams');
  const shots = screenshots.dir;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp({ port: await freePort(), env: { SMTP_URL: smtp.url, MAIL_POLL_MS: '50' } });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await t?.close();
    await smtp?.close();
    screenshots.done();
  });

  it('the owner invites a viewer by e-mail; the viewer joins and cannot mint a key, even by posting the form', async () => {
    const m = await createMerchant(t, undefined, { approvedSenderIds: [] });
    const viewerEmail = `viewer-${Date.now()}@example.com`;

    const ownerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    ownerContext.setDefaultTimeout(UI_TIMEOUT);
    const owner = await ownerContext.newPage();
    await owner.goto(`${t.baseUrl}/console/signin`);
    await owner.fill('#email', m.email);
    await owner.fill('#password', m.password);
    await owner.click('button[type=submit]');
    await owner.waitForURL(`${t.baseUrl}/console`);
    await owner.click('nav >> text=Members');
    await owner.waitForURL(/\/console\/members$/);
    await owner.fill('#invite-email', viewerEmail);
    await owner.selectOption('#invite-role', 'viewer');
    await owner.click('#invite-form button[type=submit]');
    await owner.locator('#invited').waitFor();
    expect(await owner.locator('#invitation-table').textContent()).toContain(viewerEmail);
    await owner.screenshot({ path: join(shots, 'members-invited.png'), fullPage: true });

    const [mail] = await smtp.waitForMails(1, (x) => x.to.includes(viewerEmail));
    expect(mail.subject).toContain('invited you');
    const link = /(http:\/\/\S+\/console\/invitations\?token=\S+)/.exec(mail.decoded)![1];

    const viewerContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    viewerContext.setDefaultTimeout(UI_TIMEOUT);
    const viewer = await viewerContext.newPage();
    await viewer.goto(link);
    expect(await viewer.locator('#invitation-summary').textContent()).toContain('Viewer');
    await viewer.fill('#password', 'a viewer passphrase');
    await viewer.screenshot({ path: join(shots, 'invitation.png'), fullPage: true });
    await viewer.click('#accept-form button[type=submit]');
    await viewer.waitForURL(`${t.baseUrl}/console`);

    await viewer.goto(`${t.baseUrl}/console/keys`);
    await viewer.locator('#keys-read-only').waitFor();
    expect(await viewer.locator('form[action="/console/keys"]').count()).toBe(0);
    await viewer.screenshot({ path: join(shots, 'keys-as-viewer.png'), fullPage: true });

    // The form posted anyway, with the session's own CSRF token: the server refuses it.
    const csrf = await viewer.locator('input[name="_csrf"]').first().inputValue();
    const posted = await viewer.evaluate<{ status: number; html: string }>(`(async () => {
      const response = await fetch('/console/keys', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: ${JSON.stringify(csrf)}, _once: '${'A'.repeat(22)}', name: 'sneaky', environment: 'LIVE' }),
        redirect: 'manual',
      });
      return { status: response.status, html: await response.text() };
    })()`);
    expect(posted.status).toBe(403);
    expect(posted.html).toContain('Your role (viewer) cannot manage API keys');

    // Nothing was minted: the owner's key list has only the two keys the merchant started with.
    await owner.goto(`${t.baseUrl}/console/keys`);
    expect(await owner.locator('tr[data-key-id]').count()).toBe(2);
    await ownerContext.close();
    await viewerContext.close();
  });
});
