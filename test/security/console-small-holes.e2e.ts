import { QueryBus } from '@nestjs/cqrs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoginByCredentials } from '../../src/accounts/application/queries/login-by-credentials.query';
import { runCliProcess } from '../support/cli';
import { ConsoleBrowser, postSignIn, visitSignIn } from '../support/console-form';
import { createMerchant } from '../support/merchant';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The smaller holes of the console and the operator's tools (docs/security.md, "Attacks tried
 * (console, sign-in, proxies)"): each was open before and is closed here.
 */
jest.setTimeout(300_000); // CLI runs boot the app in a process of their own: slow on a busy machine

describe('console and operator small holes (item 8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A local receiver for the webhook endpoint below (API.md: private addresses need this).
    t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  });
  afterAll(() => t?.close());

  it('/console/assets/constructor (an inherited key) is a 404 that reveals nothing', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const response = await fetch(`${t.baseUrl}/console/assets/${name}`);
      const body = await response.text();
      expect(response.status).toBe(404);
      expect(body).not.toMatch(/ENOENT|at .*\.ts:\d+|node_modules/);
    }
  });

  it('the webhook secret answer is never cached (Cache-Control: no-store)', async () => {
    const m = await createMerchant(t);
    const created = await t.request('POST', '/v1/webhook_endpoints', {
      key: m.testKey,
      body: { url: 'http://127.0.0.1:9/hooks', events: ['message.delivered'] },
    });
    expect(created.status).toBe(200);
    expect(created.body.secret).toMatch(/^whsec_/);
    expect(created.headers.get('cache-control')).toBe('no-store');
  });

  it('sessions survive a restart, and sessions:end-all ends every one of them', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sessions-'));
    let app = await startTestApp({ dataDir });
    try {
      const m = await createMerchant(app);
      const browser = new ConsoleBrowser(app.baseUrl);
      await browser.signIn(m.email, m.password);
      expect((await browser.go('GET', '/console')).status).toBe(200);

      await app.close();
      app = await startTestApp({ dataDir });
      const after = new ConsoleBrowser(app.baseUrl);
      for (const [name, value] of browser.cookies) after.cookies.set(name, value);
      expect((await after.go('GET', '/console')).status).toBe(200);

      const ended = await runCliProcess(dataDir, ['sessions:end-all']);
      expect(ended.output).toMatchObject({ ended_before: expect.any(String) });
      const refused = await after.go('GET', '/console');
      expect(refused.status).toBe(303);
      expect(refused.location).toMatch(/^\/console\/signin/);
      // Signing in again works at once.
      await after.signIn(m.email, m.password);
      expect((await after.go('GET', '/console')).status).toBe(200);
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('accounts:create reads the password from stdin when --password is not given', async () => {
    const email = `stdin-${Date.now()}@example.com`;
    const created = await runCliProcess(
      t.dataDir,
      ['accounts:create', '--email', email],
      {},
      'from stdin, not history\n',
    );
    expect(created.output).toMatchObject({ email, id: expect.stringMatching(/^acct_/) });
    const queries = t.app.get(QueryBus);
    expect(await queries.execute(new LoginByCredentials(email, 'from stdin, not history'))).not.toBeNull();
  });
});

describe('console cookies over https (item 8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Served over https (TLS ends at the proxy): PUBLIC_URL says so.
    t = await startTestApp({ env: { PUBLIC_URL: 'https://console.example.com' } });
  });
  afterAll(() => t?.close());

  it('are __Host- cookies (Secure, Path=/, no Domain), and only those are read', async () => {
    const visitor = await visitSignIn(t.baseUrl);
    expect(visitor.cookie).toMatch(/^__Host-sms_console_pre=/);
    const m = await createMerchant(t);
    const browser = new ConsoleBrowser(t.baseUrl);
    const signIn = await postSignIn(t.baseUrl, visitor, m.email, m.password);
    expect(signIn.status).toBe(303);
    const session = signIn.headers.getSetCookie().find((c) => c.startsWith('__Host-sms_console_session='));
    expect(session).toBeDefined();
    expect(session).toMatch(/; Path=\/;/);
    expect(session).toMatch(/; Secure/);
    expect(session).not.toMatch(/Domain=/i);
    const id = session!.split(';')[0].split('=')[1];

    browser.cookies.set('__Host-sms_console_session', id);
    expect((await browser.go('GET', '/console')).status).toBe(200);
    // A cookie without the prefix (one a sibling subdomain could have planted) is not a session here.
    const planted = new ConsoleBrowser(t.baseUrl);
    planted.cookies.set('sms_console_session', id);
    expect((await planted.go('GET', '/console')).status).toBe(303);
  });
});
