import type { ActivityDay } from '../../messaging/application/queries/message-activity.query';
import {
  creditsPerDayChart,
  deliveryRateChart,
  formatRate,
  messagesPerDayChart,
  niceMax,
} from './activity-charts';

const day = (d: string, m: Partial<ActivityDay['messages']>, creditsSpent = 0): ActivityDay => ({
  day: d,
  messages: { delivered: 0, failed: 0, expired: 0, canceled: 0, in_progress: 0, ...m },
  creditsSpent,
});

const rects = (svg: string) =>
  [...svg.matchAll(/<rect class="bar [^"]*"[^>]*>/g)].map((m) => {
    const attr = (name: string) => m[0].match(new RegExp(`${name}="([^"]*)"`))?.[1];
    return {
      day: attr('data-day'),
      bucket: attr('data-bucket'),
      count: Number(attr('data-count')),
      y: Number(attr('y')),
      height: Number(attr('height')),
    };
  });

describe('activity charts', () => {
  const days = [
    day('2026-05-01', { delivered: 3, failed: 1 }, 6),
    day('2026-05-02', {}),
    day('2026-05-03', { expired: 2, in_progress: 4 }, 1200),
  ];

  it('stacks one rect per non-zero status per day, delivered at the bottom, heights in proportion', () => {
    const svg = messagesPerDayChart(days);
    expect(svg).toMatch(/^<svg class="chart" viewBox="0 0 560 200"[^>]*aria-hidden="true"/);
    const bars = rects(svg);
    expect(bars.map((b) => [b.day, b.bucket, b.count])).toEqual([
      ['2026-05-01', 'delivered', 3],
      ['2026-05-01', 'failed', 1],
      ['2026-05-03', 'expired', 2],
      ['2026-05-03', 'in_progress', 4],
    ]);
    // The axis tops at 10 (6 at most): 160 px of plot, so 16 px a message; stacked upwards.
    expect(bars[0]).toMatchObject({ y: 128, height: 48 });
    expect(bars[1]).toMatchObject({ y: 112, height: 16 });
    expect(svg).toContain('<title>2026-05-03: 4 not final yet</title>');
  });

  it('draws credits per day with separators in labels', () => {
    const svg = creditsPerDayChart(days);
    expect(rects(svg).map((b) => [b.day, b.count])).toEqual([
      ['2026-05-01', 6],
      ['2026-05-03', 1200],
    ]);
    expect(svg).toContain('1,200 credits');
    expect(svg).toContain('>2,000</text>'); // the axis top
  });

  it('draws the delivery rate per carrier, escaping names, and a dash before any outcome', () => {
    const svg = deliveryRateChart([
      { carrier: 'MTN', delivered: 9, outcomes: 10, rate: 0.9 },
      { carrier: 'A&B<x>', delivered: 0, outcomes: 0, rate: null },
    ]);
    expect(svg).toContain('data-carrier="MTN" data-delivered="9" data-outcomes="10"');
    expect(svg).toContain('>90%</text>');
    expect(svg).toContain('A&#38;B&#60;x&#62;');
    expect(svg).not.toContain('<x>');
    expect(formatRate(null)).toBe('–');
  });

  it('rounds the axis up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 3, 6, 10, 11, 150, 999].map(niceMax)).toEqual([1, 1, 5, 10, 10, 20, 200, 1000]);
  });
});
