import { createHash } from 'node:crypto';
import { openPage, pathOf, startCheckout } from '../support/hosted-checkout';
import { createMerchant, Merchant } from '../support/merchant';
import { startTestApp, TestApp } from '../support/test-app';

/** The directives every HTML page must carry (API.md / issue 10), as a map. */
const REQUIRED: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'none'"],
  'object-src': ["'none'"],
};

function parseCsp(header: string | null): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), values);
  }
  return directives;
}

function expectBasePolicy(csp: Map<string, string[]>) {
  for (const [name, values] of Object.entries(REQUIRED)) expect(csp.get(name)).toEqual(values);
  expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
  expect(csp.get('script-src')).not.toContain("'unsafe-eval'");
}

describe('security headers (helmet) and the content security policy', () => {
  let t: TestApp;
  let m: Merchant;

  beforeAll(async () => {
    t = await startTestApp({
      env: { RATE_LIMIT_PER_ADDRESS_RPS: '5000', RATE_LIMIT_PER_ADDRESS_BURST: '5000' },
    });
    m = await createMerchant(t);
  });
  afterAll(() => t?.close());

  it('API responses carry helmet’s headers and the strict policy; no HSTS over plain http', async () => {
    for (const path of ['/health', '/v1/billing', '/v1/nope']) {
      const response = await t.request('GET', path, { key: m.testKey });
      const csp = parseCsp(response.headers.get('content-security-policy'));
      expectBasePolicy(csp);
      expect(csp.get('style-src')).toEqual(["'self'"]);
      expect(csp.has('form-action')).toBe(false);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('strict-transport-security')).toBeNull();
      expect(response.headers.get('x-powered-by')).toBeNull();
    }
  });

  it('the hosted checkout page allows exactly its own inline style (by hash), no script, and no form-action', async () => {
    const checkout = await startCheckout(t, m.testKey);
    const page = await openPage(t, pathOf(checkout.checkout_url));
    expect(page.status).toBe(200);
    const csp = parseCsp(page.headers.get('content-security-policy'));
    expectBasePolicy(csp);
    // Chrome applies form-action to the 303 that follows Pay, towards the merchant's success_url.
    expect(csp.has('form-action')).toBe(false);
    expect(csp.get('style-src')).not.toContain("'unsafe-inline'");
    const styles = [...page.html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((s) => s[1]);
    expect(styles).toHaveLength(1);
    const hash = `'sha256-${createHash('sha256').update(styles[0], 'utf8').digest('base64')}'`;
    expect(csp.get('style-src')).toEqual(["'self'", hash]);
    expect(page.html).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
  });

  it('the console and try-out pages use no inline script or style and load their assets from the service', async () => {
    for (const path of ['/console/signin', '/console/signup', '/try']) {
      const page = await openPage(t, path);
      expect(page.status).toBe(200);
      const csp = parseCsp(page.headers.get('content-security-policy'));
      expectBasePolicy(csp);
      expect(csp.get('style-src')).toEqual(["'self'"]);
      expect(page.html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/i); // every script is a file
      expect(page.html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
      for (const [, src] of page.html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)) {
        const asset = await fetch(`${t.baseUrl}${src}`);
        await asset.arrayBuffer(); // a body left unread keeps the connection (and app.close) waiting
        expect(asset.status).toBe(200);
      }
    }
  });

  it('/docs (Swagger UI) still loads: its own route-scoped policy adds inline styles only', async () => {
    const docs = await fetch(`${t.baseUrl}/docs`);
    expect(docs.status).toBe(200);
    const html = await docs.text();
    const csp = parseCsp(docs.headers.get('content-security-policy'));
    expectBasePolicy(csp);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    // Its scripts are files under /docs, served under the same policy.
    const scripts = [...html.matchAll(/<script[^>]*src=['"]([^'"]+)['"]/g)].map((s) => s[1]);
    expect(scripts.length).toBeGreaterThan(0);
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/i);
    for (const src of scripts) {
      const asset = await fetch(new URL(src, `${t.baseUrl}/docs`) /* as the browser resolves it */);
      await asset.arrayBuffer();
      expect(asset.status).toBe(200);
    }
    const openapi = await fetch(`${t.baseUrl}/openapi.json`);
    await openapi.arrayBuffer();
    expect(openapi.status).toBe(200);
  });
});

describe('HSTS when PUBLIC_URL is https', () => {
  it('sends Strict-Transport-Security behind TLS termination', async () => {
    const t = await startTestApp({ env: { PUBLIC_URL: 'https://sms.example.com' } });
    try {
      const response = await t.request('GET', '/health');
      expect(response.headers.get('strict-transport-security')).toMatch(
        /max-age=31536000; includeSubDomains/,
      );
    } finally {
      await t.close();
    }
  });
});
