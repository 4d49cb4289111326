import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SignInThrottle } from '../../src/console/application/sign-in-throttle';
import { randomToken } from '../../src/shared/ids';
import { ConsoleVisitor, visitSignIn } from '../support/console-form';
import { createMerchant } from '../support/merchant';
import { SANDBOX, sendBody } from '../support/messaging';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * What a client without an account can do to the console's sign-in and to the per-address
 * limits (docs/security.md, "Attacks tried (console, sign-in, proxies)"). Every attack runs
 * against the whole app over HTTP; nothing here asserts a timing.
 */
jest.setTimeout(600_000);

async function signIn(
  t: TestApp,
  visitor: ConsoleVisitor,
  fields: { email: string; password: string },
  headers: Record<string, string> = {},
): Promise<number> {
  const response = await fetch(`${t.baseUrl}/console/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: visitor.cookie, ...headers },
    body: new URLSearchParams({ _csrf: visitor.csrf, ...fields }).toString(),
    redirect: 'manual',
  });
  await response.arrayBuffer();
  return response.status;
}

/** Runs `count` tasks, `parallel` at a time. */
async function inParallel(
  count: number,
  parallel: number,
  task: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/** Heap in use after a full collection (jest runs tests in a vm context: gc is fetched from a fresh one). */
function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('sign-in cannot exhaust the heap (item 2)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // TRUST_PROXY=true as an operator sets it: before the fix, every request's own X-Forwarded-For
    // became its address, so both the token buckets and the throttle kept a 16 KB key per request.
    t = await startTestApp({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => t?.close());

  it('10,000 attempts with 16 KB emails and 16 KB addresses leave the heap and the throttle bounded', async () => {
    const visitor = await visitSignIn(t.baseUrl);
    const before = heapAfterGc();
    const statuses = new Map<number, number>();
    await inParallel(10_000, 8, async (i) => {
      const unique = `${i}-${randomToken(8)}`;
      const email =
        i % 2 === 0
          ? `${unique}${'e'.repeat(16_000)}@example.com`
          : `${unique}${'e'.repeat(230)}`.slice(0, 254);
      const status = await signIn(
        t,
        visitor,
        { email, password: '' },
        { 'x-forwarded-for': `${unique}${'a'.repeat(15_000)}` },
      );
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
    const grown = heapAfterGc() - before;
    // Before the fix this grew by about 30 KB per attempt (300 MB); a generous bound either way.
    expect(grown).toBeLessThan(64 * 1024 * 1024);
    // Nothing at all was remembered for empty passwords, and the buckets stay few.
    expect(t.app.get(SignInThrottle).size).toBe(0);
    expect([...statuses.keys()].every((s) => s === 200 || s === 400 || s === 429)).toBe(true);
  });
});

describe('sign-in throttling (item 3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      // One hop: the proxy this test plays appends the client address to X-Forwarded-For.
      env: { TRUST_PROXY: '1', RATE_LIMIT_PER_ADDRESS_BURST: '1000', RATE_LIMIT_PER_ADDRESS_RPS: '1000' },
    });
  });
  afterAll(() => t?.close());

  it('50 concurrent wrong passwords from one address: at most 5 are checked, the rest are 429', async () => {
    const merchant = await createMerchant(t);
    const visitor = await visitSignIn(t.baseUrl);
    const statuses = await Promise.all(
      Array.from({ length: 50 }, () =>
        signIn(
          t,
          visitor,
          { email: merchant.email, password: 'wrong password!' },
          { 'x-forwarded-for': '198.51.100.1' },
        ),
      ),
    );
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(45);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
  });

  it('one account guessed from many addresses is paused after 20 failures', async () => {
    const merchant = await createMerchant(t);
    const visitor = await visitSignIn(t.baseUrl);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++)
      statuses.push(
        await signIn(
          t,
          visitor,
          { email: merchant.email, password: `guess number ${i}` },
          { 'x-forwarded-for': `203.0.113.${i + 1}` },
        ),
      );
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('one address spraying a password across accounts is paused after 50 failures', async () => {
    const visitor = await visitSignIn(t.baseUrl);
    const statuses: number[] = [];
    for (let i = 0; i < 51; i++)
      statuses.push(
        await signIn(
          t,
          visitor,
          { email: `spray-${i}@example.com`, password: 'Summer2026!' },
          { 'x-forwarded-for': '198.51.100.99' },
        ),
      );
    expect(statuses.slice(0, 50).every((s) => s === 200)).toBe(true);
    expect(statuses[50]).toBe(429);
  });

  it('the right password still works from an address that mistyped a few times', async () => {
    const merchant = await createMerchant(t);
    const visitor = await visitSignIn(t.baseUrl);
    const from = { 'x-forwarded-for': '198.51.100.50' };
    for (let i = 0; i < 3; i++)
      expect(await signIn(t, visitor, { email: merchant.email, password: 'typo typo typo' }, from)).toBe(200);
    expect(await signIn(t, visitor, { email: merchant.email, password: merchant.password }, from)).toBe(303);
  });
});

describe('TRUST_PROXY never lets a client pick its address (item 4)', () => {
  const limited = { RATE_LIMIT_PER_ADDRESS_RPS: '1', RATE_LIMIT_PER_ADDRESS_BURST: '2' };

  /** Try-out sends from one client that invents a new X-Forwarded-For entry each time. */
  async function tryOuts(t: TestApp, forwardedFor: (i: number) => string): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await t.request('POST', '/v1/sandbox/messages', {
        body: sendBody({ to: SANDBOX.delivered }),
        headers: { 'x-forwarded-for': forwardedFor(i) },
      });
      statuses.push(response.status);
    }
    return statuses;
  }

  for (const setting of ['true', '1', '127.0.0.1/32,10.0.0.0/8']) {
    it(`TRUST_PROXY=${setting}: a spoofed left-most entry gets no fresh bucket`, async () => {
      const t = await startTestApp({ env: { ...limited, TRUST_PROXY: setting } });
      try {
        // The client wrote "9.9.9.i"; the proxy appended the address it saw.
        const statuses = await tryOuts(t, (i) => `9.9.9.${i}, 198.51.100.7`);
        expect(statuses.slice(0, 2)).toEqual([200, 200]);
        expect(statuses.slice(2).every((s) => s === 429)).toBe(true);
      } finally {
        await t.close();
      }
    });
  }

  it('an IPv6 client rotating addresses within its /64 shares one bucket', async () => {
    const t = await startTestApp({ env: { ...limited, TRUST_PROXY: '1' } });
    try {
      const statuses = await tryOuts(t, (i) => `2001:db8:aa:bb::${i + 1}`);
      expect(statuses.slice(0, 2)).toEqual([200, 200]);
      expect(statuses.slice(2).every((s) => s === 429)).toBe(true);
      // Another /64 is another client.
      const other = await t.request('POST', '/v1/sandbox/messages', {
        body: sendBody({ to: SANDBOX.delivered }),
        headers: { 'x-forwarded-for': '2001:db8:aa:cc::1' },
      });
      expect(other.status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
