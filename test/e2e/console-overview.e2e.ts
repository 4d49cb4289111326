import { CommandBus } from '@nestjs/cqrs';
import type { Clock } from '../../src/shared/clock';
import { CLOCK } from '../../src/shared/clock';
import { formatDate } from '../../src/shared/wording';
import { RebuildProjections } from '../../src/shared/projections/rebuild-projections.command';
import { ConsoleBrowser } from '../support/console-form';
import { createMerchant, Merchant } from '../support/merchant';
import { finalState, SANDBOX, send } from '../support/messaging';
import { eventually, startTestApp, TestApp } from '../support/test-app';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The real time moved by `offset`: the app records "yesterday" while it is set to a day back. */
class OffsetClock implements Clock {
  offset = 0;
  now(): Date {
    return new Date(Date.now() + this.offset);
  }
}

/** The overview's group of a status, worked out here on its own: the outcomes, canceled, else not final yet. */
const bucketOf = (status: string) =>
  ['DELIVERED', 'FAILED', 'EXPIRED', 'CANCELED'].includes(status) ? status.toLowerCase() : 'in_progress';

/** `day bucket` → count, from the rects of one of the overview's charts. */
function bars(html: string, chart: string): Record<string, number> {
  const svg = new RegExp(`<svg[^>]*data-chart="${chart}"[\\s\\S]*?</svg>`).exec(html)?.[0];
  if (!svg) throw new Error(`no ${chart} chart on the overview`);
  const counts: Record<string, number> = {};
  for (const [rect] of svg.matchAll(/<rect class="bar[^>]*>/g)) {
    const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(rect)?.[1] ?? '';
    const key = [attr('data-day') || attr('data-carrier'), attr('data-bucket')].filter(Boolean).join(' ');
    counts[key] = Number(attr('data-count') || attr('data-delivered'));
  }
  return counts;
}

describe('console overview: messages per day, delivery per carrier, credits per day', () => {
  let t: TestApp;
  let m: Merchant;
  let browser: ConsoleBrowser;
  const clock = new OffsetClock();

  beforeAll(async () => {
    t = await startTestApp({
      env: { TEST_DLR_DELAY_MS: '50' },
      override: (builder) => builder.overrideProvider(CLOCK).useValue(clock),
    });
    m = await createMerchant(t);
    browser = new ConsoleBrowser(t.baseUrl);
    await browser.signIn(m.email, m.password);
  });
  afterAll(() => t?.close());

  /** One send of each outcome, and a scheduled one canceled, all finished. */
  async function sendEachOutcome(): Promise<void> {
    const ids: string[] = [];
    for (const to of Object.values(SANDBOX)) {
      const sent = await send(t, m.testKey, { to });
      expect(sent.status).toBe(200);
      ids.push(sent.body.id);
    }
    const scheduled = await send(t, m.testKey, {
      to: SANDBOX.delivered,
      send_at: new Date(clock.now().getTime() + 60 * 60 * 1000).toISOString(),
    });
    expect(scheduled.status).toBe(200);
    const canceled = await t.request('POST', `/v1/messages/${scheduled.body.id}/cancel`, { key: m.testKey });
    expect(canceled.body.status).toBe('CANCELED');
    for (const id of ids) await finalState(t, m.testKey, id);
  }

  it('shows bars whose counts equal the API list for two days, and the same numbers after a rebuild', async () => {
    clock.offset = -DAY_MS;
    await sendEachOutcome();
    await sendEachOutcome(); // two of each yesterday
    clock.offset = 0;
    await sendEachOutcome();

    const list = await t.request('GET', '/v1/messages?limit=100', { key: m.testKey });
    expect(list.status).toBe(200);
    const expected: Record<string, number> = {};
    let deliveredCredits = 0;
    const carriers: Record<string, { delivered: number; outcomes: number }> = {};
    for (const message of list.body.data as {
      created_at: string;
      status: string;
      credits: number;
      carrier: string;
    }[]) {
      const key = `${message.created_at.slice(0, 10)} ${bucketOf(message.status)}`;
      expected[key] = (expected[key] ?? 0) + 1;
      const carrier = (carriers[message.carrier] ??= { delivered: 0, outcomes: 0 });
      if (message.status === 'DELIVERED') {
        deliveredCredits += message.credits;
        carrier.delivered += 1;
      }
      if (['DELIVERED', 'FAILED', 'EXPIRED'].includes(message.status)) carrier.outcomes += 1;
    }
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
    expect(expected).toEqual({
      [`${yesterday} delivered`]: 2,
      [`${yesterday} failed`]: 4, // the failed number and the one the carrier rejects
      [`${yesterday} expired`]: 2,
      [`${yesterday} canceled`]: 2,
      [`${today} delivered`]: 1,
      [`${today} failed`]: 2,
      [`${today} expired`]: 1,
      [`${today} canceled`]: 1,
    });

    // Credits are captured after the outcome, by the settlement process.
    const overview = await eventually(
      async () => {
        const page = await browser.go('GET', '/console');
        const credits = Object.values(bars(page.html, 'credits-per-day')).reduce((a, b) => a + b, 0);
        return credits === deliveredCredits ? page.html : undefined;
      },
      30_000,
      'the credits of the delivered messages on the overview',
    );
    expect(bars(overview, 'messages-per-day')).toEqual(expected);
    expect(Object.keys(carriers)).toHaveLength(1); // the sandbox numbers' one carrier
    for (const [carrier, { delivered, outcomes }] of Object.entries(carriers)) {
      expect({ delivered, outcomes }).toEqual({ delivered: 3, outcomes: 12 });
      expect(overview).toContain(`data-carrier="${carrier}" data-delivered="3" data-outcomes="12"`);
      expect(overview).toContain('>25%</text>');
    }
    expect(overview).toMatch(
      new RegExp(
        `<tr data-day="${yesterday}"><th scope="row"><time datetime="${yesterday}">${formatDate(yesterday)}</time></th><td data-bucket="delivered">2</td><td data-bucket="failed">4</td>`,
      ),
    );

    await t.app.get(CommandBus).execute(new RebuildProjections());
    const rebuilt = (await browser.go('GET', '/console')).html;
    const charts = (html: string) => /<section class="insight"[\s\S]*?<\/section>/.exec(html)?.[0];
    expect(charts(rebuilt)).toBe(charts(overview));
  });
});
