import { ConsoleBrowser } from '../support/console-form';
import { createMerchant } from '../support/merchant';
import { SANDBOX } from '../support/messaging';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 28, items 2 and 11: a signed-in console session is rate-limited like an API key
 * (RATE_LIMIT_PER_SESSION_*, as docs/operations.md says), and its "Send to many" previews (each
 * checks up to 1,000 rows) have a limit of their own (SEND_MANY_PREVIEWS_PER_SESSION_PER_MINUTE).
 */
describe('console sessions are rate-limited', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        RATE_LIMIT_PER_SESSION_RPS: '1',
        RATE_LIMIT_PER_SESSION_BURST: '10',
        SEND_MANY_PREVIEWS_PER_SESSION_PER_MINUTE: '2',
      },
    });
  });
  afterAll(() => t?.close());

  const signedIn = async () => {
    const m = await createMerchant(t);
    const browser = new ConsoleBrowser(t.baseUrl);
    await browser.signIn(m.email, m.password);
    return browser;
  };

  it('answers a session past its burst with a 429 page and Retry-After; another session is unaffected', async () => {
    const browser = await signedIn();
    const other = await signedIn();
    const statuses: number[] = [];
    // The burst is 10 and one more comes each second: within 40 fast requests, one is refused.
    for (let i = 0; i < 40 && !statuses.includes(429); i++)
      statuses.push((await browser.go('GET', '/console')).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses).toContain(429);
    const refused = await fetch(`${t.baseUrl}/console/messages`, {
      headers: { cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      redirect: 'manual',
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('content-type')).toMatch(/text\/html/);
    expect(await refused.text()).toContain('Too many requests from this console session');
    expect((await other.go('GET', '/console')).status).toBe(200);
  });

  it('allows a session only so many Send to many previews a minute', async () => {
    const browser = await signedIn();
    const csrf = await browser.csrf('/console/send-many');
    const preview = () =>
      browser.upload(
        '/console/send-many/preview',
        { _csrf: csrf, sender_id: 'MyShop', type: 'transactional', message: 'Hello' },
        { field: 'file', name: 'customers.csv', content: `to\n${SANDBOX.delivered}\n` },
      );
    expect((await preview()).status).toBe(200);
    expect((await preview()).status).toBe(200);
    const third = await preview();
    expect(third.status).toBe(429);
    expect(third.html).toContain('Too many previews from this console session');
  });
});
