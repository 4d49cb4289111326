import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMerchant } from '../support/merchant';
import { SANDBOX, send } from '../support/messaging';
import { eventually, expectRateLimited, startTestApp, TestApp, TestAppOptions } from '../support/test-app';

/**
 * Free TEST traffic (docs/security.md, "Attacks tried"): a free account's TEST key sends to the
 * failing sandbox numbers, whose credits come back, so 100 free credits never run out. TEST
 * keys get a lower rate limit and a daily message quota (which survives a restart), and
 * console sign-ups are throttled per address.
 */

describe('TEST traffic limits', () => {
  it('TEST keys have a lower rate limit than LIVE keys', async () => {
    const t = await startTestApp({
      env: {
        RATE_LIMIT_PER_KEY_RPS: '1000',
        RATE_LIMIT_PER_KEY_BURST: '1000',
        RATE_LIMIT_PER_TEST_KEY_RPS: '1',
        RATE_LIMIT_PER_TEST_KEY_BURST: '3',
      },
    });
    try {
      const m = await createMerchant(t);
      const test = [];
      for (let i = 0; i < 4; i++) test.push(await t.request('GET', '/v1/billing', { key: m.testKey }));
      expect(test.slice(0, 3).map((r) => r.status)).toEqual([200, 200, 200]);
      expectRateLimited(test[3]);
      for (let i = 0; i < 10; i++)
        expect((await t.request('GET', '/v1/billing', { key: m.liveKey })).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('a TEST wallet sends at most its daily quota, released credits or not, across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sms-wallet-quota-'));
    const options: TestAppOptions = {
      dataDir,
      keepData: true,
      env: { TEST_DAILY_MESSAGE_QUOTA: '5', TEST_DLR_DELAY_MS: '0' },
    };
    try {
      const first = await startTestApp(options);
      let key: string;
      try {
        const m = await createMerchant(first);
        key = m.testKey;
        for (let i = 0; i < 5; i++) expect((await send(first, key, { to: SANDBOX.failed })).status).toBe(200);
        // The failing number gives every credit back: credits alone would never stop this key.
        await eventually(
          async () =>
            (await first.request('GET', '/v1/billing', { key })).body.sms_left === 100 ? true : undefined,
          30_000,
          'the credits released',
        );
        const refused = await send(first, key, { to: SANDBOX.failed });
        expect(expectRateLimited(refused)).toBeLessThanOrEqual(24 * 60 * 60);
        expect((await first.request('GET', '/v1/messages?limit=100', { key })).body.data).toHaveLength(5);
      } finally {
        await first.close();
      }
      // A restart does not hand out a fresh quota: it is seeded from the recorded messages.
      const second = await startTestApp(options);
      try {
        expectRateLimited(await send(second, key, { to: SANDBOX.delivered }));
        expect((await second.request('GET', '/v1/messages?limit=100', { key })).body.data).toHaveLength(5);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('console sign-ups are throttled per client address', async () => {
    const t: TestApp = await startTestApp({ env: { SIGNUP_LIMIT_PER_ADDRESS_PER_HOUR: '2' } });
    try {
      const signUp = async (email: string) => {
        const page = await fetch(`${t.baseUrl}/console/signup`, { redirect: 'manual' });
        const html = await page.text();
        const cookie = page.headers
          .getSetCookie()
          .map((c) => c.split(';')[0])
          .join('; ');
        const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
        const response = await fetch(`${t.baseUrl}/console/signup`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
          body: new URLSearchParams({ _csrf: csrf, email, password: 'a long enough password 1' }).toString(),
          redirect: 'manual',
        });
        await response.text();
        return response;
      };
      expect((await signUp('first@example.com')).status).toBe(303);
      expect((await signUp('second@example.com')).status).toBe(303);
      const third = await signUp('third@example.com');
      expect(third.status).toBe(429);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await t.close();
    }
  });
});
