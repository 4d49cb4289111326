import { CommandBus } from '@nestjs/cqrs';
import { RebuildProjections } from '../../src/shared/projections/rebuild-projections.command';
import { ConsoleBrowser } from '../support/console-form';
import { createMerchant, Merchant } from '../support/merchant';
import { finalState, SANDBOX } from '../support/messaging';
import { eventually, startTestApp, TestApp } from '../support/test-app';

/**
 * The console's Verifications page (issue 30): recent verifications with status, checks used and
 * time to approve; per day started, approved, conversion, refused by the guard and credits spent,
 * from the verifications read model (the same after projections:rebuild); and the TEST try-out.
 */
describe('console: Verifications', () => {
  let t: TestApp;
  let m: Merchant;
  let browser: ConsoleBrowser;

  beforeAll(async () => {
    t = await startTestApp({ env: { TEST_DLR_DELAY_MS: '20' } });
    m = await createMerchant(t);
    browser = new ConsoleBrowser(t.baseUrl);
    await browser.signIn(m.email, m.password);
  });
  afterAll(() => t?.close());

  const create = (to: string) =>
    t.request('POST', '/v1/verifications', { key: m.testKey, body: { to, sender_id: 'MyShop' } });
  const rowOf = (html: string, id: string) =>
    new RegExp(`<tr data-verification="${id}">([\\s\\S]*?)</tr>`).exec(html)?.[1] ?? '';
  const cells = (row: string) =>
    [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1].replace(/<[^>]+>/g, '').trim());

  it('shows recent verifications and the day: started, approved, conversion, refused, credits spent', async () => {
    const approved = await create(SANDBOX.delivered);
    await finalState(t, m.testKey, approved.body.message_id);
    await t.request('POST', `/v1/verifications/${approved.body.id}/check`, {
      key: m.testKey,
      body: { code: approved.body.test_code },
    });
    const undelivered = await create(SANDBOX.failed);
    await finalState(t, m.testKey, undelivered.body.message_id);
    for (let i = 0; i < 5; i++) await create('+233551112222');
    const refused = await create('+233551112222');
    expect(refused.status).toBe(429);

    const today = new Date().toISOString().slice(0, 10);
    const dayRow = async () => {
      const page = await browser.go('GET', '/console/verifications');
      expect(page.status).toBe(200);
      return /<time datetime="(\d{4}-\d\d-\d\d)">[\s\S]*?<\/th>([\s\S]*?)<\/tr>/.exec(
        /<table class="stack" id="verification-days">[\s\S]*?<\/table>/.exec(page.html)?.[0] ?? '',
      );
    };
    // The SMS of the five to one number are delivered too (TEST): 6 credits spent, 1 for the failed one not.
    const expected = ['7', '1', '14%', '1', '6'];
    const day = await eventually(
      async () => {
        const row = await dayRow();
        return row && JSON.stringify(cells(row[2])) === JSON.stringify(expected) ? row : undefined;
      },
      20_000,
      'the day to show 7 started, 1 approved, 1 refused and 6 credits spent',
    );
    expect(day[1]).toBe(today);

    const page = await browser.go('GET', '/console/verifications');
    expect(cells(rowOf(page.html, approved.body.id))).toEqual([
      SANDBOX.delivered,
      'approved',
      '1 of 5',
      '1 SMS',
      expect.stringMatching(/^\d+ seconds?$/),
      '1',
      expect.any(String),
    ]);
    expect(cells(rowOf(page.html, undelivered.body.id)).slice(0, 6)).toEqual([
      SANDBOX.failed,
      'pending',
      '0 of 5',
      '1 SMS',
      '',
      '0',
    ]);
    expect(page.html).toMatch(
      /id="refusal-table"[\s\S]*\+233551112222[\s\S]*too many verifications to this number in the last hour/,
    );
    expect(page.html).not.toContain(approved.body.test_code);
    expect(page.html).toContain('href="/console/verifications" aria-current="page"');

    // The read model is rebuilt from the log to the same numbers.
    await t.app.get(CommandBus).execute(new RebuildProjections());
    expect(cells((await dayRow())![2])).toEqual(expected);
    expect(cells(rowOf((await browser.go('GET', '/console/verifications')).html, approved.body.id))[1]).toBe(
      'approved',
    );
  });

  it('tries a verification under TEST: the code on the page, then checked', async () => {
    const tokens = await browser.formTokens('/console/verifications');
    const started = await browser.go('POST', '/console/verifications', {
      ...tokens,
      to: '+233241117777',
      sender_id: 'MyShop',
    });
    expect(started.status).toBe(303);
    expect(started.location).toBe('/console/verifications#try');
    const page = await browser.go('GET', '/console/verifications');
    const code = /id="test-code">(\d{6})</.exec(page.html)?.[1];
    expect(code).toBeDefined();
    const action = /action="(\/console\/verifications\/ver_[0-9A-Za-z]+\/check)"/.exec(page.html)?.[1];
    expect(action).toBeDefined();
    // The same form sent again starts nothing more (its one-time token is the Idempotency-Key).
    const twice = await browser.go('POST', '/console/verifications', {
      ...tokens,
      to: '+233241117777',
      sender_id: 'MyShop',
    });
    expect(twice.status).toBe(303);
    const list = await t.request('GET', '/v1/verifications', { key: m.testKey });
    expect(list.body.data.filter((v: { to: string }) => v.to === '+233241117777')).toHaveLength(1);

    const checkTokens = /name="_csrf" value="([^"]+)"[\s\S]*?name="_once" value="([^"]+)"/.exec(
      page.html.slice(page.html.indexOf(action!)),
    )!;
    const checked = await browser.go('POST', action!, {
      _csrf: checkTokens[1],
      _once: checkTokens[2],
      code: code!,
    });
    expect(checked.status).toBe(303);
    const after = await browser.go('GET', '/console/verifications');
    expect(after.html).toMatch(/id="tried"[\s\S]*?status-approved">approved</);
  });

  it('shows a refusal next to the try-out form', async () => {
    const refused = await browser.go('POST', '/console/verifications', {
      ...(await browser.formTokens('/console/verifications')),
      to: '0241234567',
      sender_id: 'MyShop',
    });
    expect(refused.status).toBe(400);
    expect(refused.html).toMatch(/class="error" role="alert">to must be an E\.164 number/);
  });

  it('refuses the try-out under LIVE', async () => {
    const switched = await browser.go('POST', '/console/environment', {
      _csrf: await browser.csrf('/console/verifications'),
      environment: 'LIVE',
      next: '/console/verifications',
    });
    expect(switched.status).toBe(303);
    const page = await browser.go('GET', '/console/verifications');
    expect(page.html).toContain('The try-out runs in the TEST environment');
    expect(page.html).not.toContain('action="/console/verifications"');
    const refused = await browser.go('POST', '/console/verifications', {
      _csrf: await browser.csrf('/console/verifications'),
      _once: 'A'.repeat(22),
      to: '+233241117777',
      sender_id: 'MyShop',
    });
    expect(refused.status).toBe(403);
    expect((await t.request('GET', '/v1/verifications', { key: m.liveKey })).body.data).toEqual([]);
  });
});
