import { ConsoleBrowser } from '../support/console-form';
import { createMerchant } from '../support/merchant';
import { startSmtpServer, TestSmtpServer } from '../support/smtp-server';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Password reset over HTTP (API.md, Wallet care; issue 31): "Forgot password?" mails a one-time
 * link valid 30 minutes through a real SMTP server; using it sets the password and ends every
 * session; the answer never tells whether an address has an account; requests are throttled.
 * Also the console's Statement page and its CSV.
 */
jest.setTimeout(120_000);

const linkIn = (text: string) => /(http:\/\/\S+\/console\/reset-password\?token=\S+)/.exec(text)?.[1];

describe('Console: password reset and statement', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp({ env: { SMTP_URL: smtp.url, MAIL_POLL_MS: '50' } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  async function askReset(email: string) {
    const visitor = new ConsoleBrowser(t.baseUrl);
    const signin = await visitor.go('GET', '/console/signin');
    expect(signin.html).toContain('href="/console/forgot-password"');
    return visitor.go('POST', '/console/forgot-password', {
      _csrf: await visitor.csrf('/console/forgot-password'),
      email,
    });
  }

  it('mails a link that works once, sets the password, ends every session; the answer is the same for anyone', async () => {
    const m = await createMerchant(t, undefined, { approvedSenderIds: [] });
    const signedIn = new ConsoleBrowser(t.baseUrl);
    await signedIn.signIn(m.email, m.password);
    expect((await signedIn.go('GET', '/console')).status).toBe(200);

    const known = await askReset(m.email);
    const unknown = await askReset(`nobody-${Date.now()}@example.com`);
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    const sentence = (html: string) =>
      /<p class="notice"[^>]*id="reset-sent">.*?<\/p>/s.exec(html)?.[0].replace(/<strong>.*?<\/strong>/, '');
    expect(sentence(known.html)).toBeDefined();
    expect(sentence(known.html)).toBe(sentence(unknown.html));

    const [mail] = await smtp.waitForMails(
      1,
      (x) => x.to.includes(m.email) && x.subject === 'Reset your password',
    );
    const link = linkIn(mail.decoded)!;
    expect(link).toBeDefined();
    expect(mail.raw).toContain('Content-Type: text/html');
    const path = new URL(link).pathname + new URL(link).search;

    const visitor = new ConsoleBrowser(t.baseUrl);
    const page = await visitor.go('GET', path);
    expect(page.status).toBe(200);
    const token = /name="token" value="([^"]+)"/.exec(page.html)![1];
    const tooShort = await visitor.go('POST', '/console/reset-password', {
      _csrf: await visitor.csrf(path),
      token,
      password: 'short',
    });
    expect(tooShort.status).toBe(400);
    const set = await visitor.go('POST', '/console/reset-password', {
      _csrf: await visitor.csrf(path),
      token,
      password: 'a brand new passphrase',
    });
    expect(set.status).toBe(200);
    expect(set.html).toContain('Your new password is set');

    // Every session of the account has ended.
    const after = await signedIn.go('GET', '/console');
    expect(after.status).toBe(303);
    expect(after.location).toMatch(/^\/console\/signin/);
    // The old password no longer signs in; the new one does.
    await expect(new ConsoleBrowser(t.baseUrl).signIn(m.email, m.password)).rejects.toThrow(
      'sign-in refused',
    );
    await new ConsoleBrowser(t.baseUrl).signIn(m.email, 'a brand new passphrase');
    // The link worked once.
    const again = await visitor.go('POST', '/console/reset-password', {
      _csrf: await visitor.csrf(path),
      token,
      password: 'yet another passphrase',
    });
    expect(again.status).toBe(400);
    expect(again.html).toContain('This link is no longer valid');
    // Nothing was mailed for the address without an account.
    expect(
      smtp.mails.filter((x) => x.subject === 'Reset your password' && !x.to.includes(m.email)),
    ).toHaveLength(0);
  });

  it('sends at most 3 links an hour to one account, answering every request alike', async () => {
    const m = await createMerchant(t, undefined, { approvedSenderIds: [] });
    for (let i = 0; i < 5; i++) expect((await askReset(m.email)).status).toBe(200);
    await smtp.waitForMails(3, (x) => x.to.includes(m.email) && x.subject === 'Reset your password');
    const page = await new ConsoleBrowser(t.baseUrl).go('GET', '/console/reset-password?token=acct_x.nope');
    expect(page.status).toBe(200);
    // The outbox has sent all it was asked; a 4th and 5th were never queued.
    const { QueryBus } = await import('@nestjs/cqrs');
    const { MailOutbox } = await import('../../src/notifications/application/queries/mail-outbox.query');
    const listing = await t.app.get(QueryBus).execute(new MailOutbox('sent', 1000));
    expect(listing.mails.filter((x) => x.to === m.email && x.kind === 'password_reset')).toHaveLength(3);
  });

  it('refuses a link that is not one', async () => {
    const visitor = new ConsoleBrowser(t.baseUrl);
    const path = '/console/reset-password?token=acct_0000.not-a-token';
    const answer = await visitor.go('POST', '/console/reset-password', {
      _csrf: await visitor.csrf(path),
      token: 'acct_0000.not-a-token',
      password: 'a brand new passphrase',
    });
    expect(answer.status).toBe(400);
    expect(answer.html).toContain('This link is no longer valid');
  });

  it('shows the month statement and downloads its CSV', async () => {
    const m = await createMerchant(t, undefined, { approvedSenderIds: [] });
    const browser = new ConsoleBrowser(t.baseUrl);
    await browser.signIn(m.email, m.password);
    const page = await browser.go('GET', '/console/statement');
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>Statement</h1>');
    expect(page.html).toContain('data-testid="closing-balance">100<');
    const month = new Date().toISOString().slice(0, 7);
    expect(page.html).toContain(`href="/console/statement.csv?month=${month}"`);
    const csv = await browser.go('GET', `/console/statement.csv?month=${month}`);
    expect(csv.status).toBe(200);
    expect(csv.html.split('\r\n')[0]).toBe('date,type,reference,description,sms');
    expect(csv.html).toContain('closing_balance,,Balance at the end of the day,100');
    const signedOut = await new ConsoleBrowser(t.baseUrl).go('GET', `/console/statement.csv?month=${month}`);
    expect(signedOut.status).toBe(303);
  });
  it('answers at most 10 requests an hour from one client address (429 with Retry-After), whatever the addresses asked for', async () => {
    // The suite's other tests asked from this address too: within 11 more, the limit answers.
    let refused: Awaited<ReturnType<typeof askReset>> | undefined;
    for (let i = 0; i < 11 && !refused; i++) {
      const answer = await askReset(`anyone-${i}-${Date.now()}@example.com`);
      if (answer.status === 429) refused = answer;
      else expect(answer.status).toBe(200);
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused?.html).toContain('Too many password resets were asked from your address');
  });
});
