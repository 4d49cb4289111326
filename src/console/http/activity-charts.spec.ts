import type { ActivityDay } from '../../messaging/application/queries/message-activity.query';
import {
  carrierOutcomesChart,
  creditsPerDayChart,
  deliveryRateChart,
  formatRate,
  messagesPerDayChart,
  overallDelivery,
  axisTicks,
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
    expect(svg).toMatch(/^<svg class="chart chart-wide" viewBox="0 0 560 200"[^>]*aria-hidden="true"/);
    const bars = rects(svg);
    expect(bars.map((b) => [b.day, b.bucket, b.count])).toEqual([
      ['2026-05-01', 'delivered', 3],
      ['2026-05-01', 'failed', 1],
      ['2026-05-03', 'expired', 2],
      ['2026-05-03', 'in_progress', 4],
    ]);
    // The axis tops at 6 (6 at most, steps of 2): 158 units of plot, so 26.3 a message; stacked upwards.
    expect(bars[0]).toMatchObject({ y: 95, height: 79 });
    expect(bars[1]).toMatchObject({ y: 68.7, height: 26.3 });
    expect(svg).toContain('<title>3 May 2026: 4 not final yet</title>');
  });

  it('draws credits per day with separators in labels', () => {
    const svg = creditsPerDayChart(days);
    expect(rects(svg).map((b) => [b.day, b.count])).toEqual([
      ['2026-05-01', 6],
      ['2026-05-03', 1200],
    ]);
    expect(svg).toContain('1,200 credits');
    expect(svg).toContain('>1,500</text>'); // the axis top
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

  it('puts gridlines at whole numbers only, in steps of 1, 2 or 5 times a power of ten', () => {
    expect(axisTicks(0)).toEqual({ top: 1, ticks: [0, 1] });
    expect(axisTicks(1)).toEqual({ top: 1, ticks: [0, 1] });
    expect(axisTicks(3)).toEqual({ top: 3, ticks: [0, 1, 2, 3] });
    expect(axisTicks(5)).toEqual({ top: 5, ticks: [0, 1, 2, 3, 4, 5] });
    expect(axisTicks(7)).toEqual({ top: 8, ticks: [0, 2, 4, 6, 8] });
    expect(axisTicks(150)).toEqual({ top: 150, ticks: [0, 50, 100, 150] });
    expect(axisTicks(999).top).toBe(1000);
    for (const max of [0, 1, 2, 3, 4, 5, 6, 7, 9, 11, 23, 99, 101, 1234, 98765]) {
      const { top, ticks } = axisTicks(max);
      expect(top).toBeGreaterThanOrEqual(max);
      expect(ticks.length).toBeLessThanOrEqual(6);
      expect(ticks.every(Number.isInteger)).toBe(true);
    }
  });

  it('labels the days as the console writes dates ("1 May"), not as ISO month-days', () => {
    const svg = messagesPerDayChart([day('2026-05-01', { delivered: 1 }), day('2026-05-02', {})]);
    const labels = [...svg.matchAll(/<text class="axis"[^>]*text-anchor="middle">([^<]*)</g)].map(
      (m) => m[1],
    );
    expect(labels).toEqual(['1 May', '2 May']);
  });

  it('labels a first day of one message 0 and 1, never a truncated half', () => {
    const svg = messagesPerDayChart([day('2026-05-01', { delivered: 1 })]);
    expect([...svg.matchAll(/<text class="axis"[^>]*text-anchor="end">([^<]*)</g)].map((m) => m[1])).toEqual([
      '0',
      '1',
    ]);
  });

  it('sums every carrier for the headline rate', () => {
    expect(
      overallDelivery([
        { carrier: 'MTN', delivered: 9, outcomes: 10, rate: 0.9 },
        { carrier: 'AT', delivered: 1, outcomes: 10, rate: 0.1 },
      ]),
    ).toMatchObject({ delivered: 10, outcomes: 20, rate: 0.5 });
    expect(overallDelivery([]).rate).toBeNull();
  });

  it('draws a campaign’s carriers as bars as long as their share of the busiest, stacked by outcome', () => {
    const svg = carrierOutcomesChart([
      { carrier: 'MTN', delivered: 6, failed: 1, expired: 1, pending: 2 },
      { carrier: 'AT', delivered: 5, failed: 0, expired: 0, pending: 0 },
    ]);
    const parts = [...svg.matchAll(/data-carrier="(\w+)" data-part="(\w+)" data-count="(\d+)"/g)].map((m) =>
      m.slice(1),
    );
    expect(parts).toEqual([
      ['MTN', 'delivered', '6'],
      ['MTN', 'failed', '1'],
      ['MTN', 'expired', '1'],
      ['MTN', 'pending', '2'],
      ['AT', 'delivered', '5'],
    ]);
    const widths = [...svg.matchAll(/class="bar [^"]+" x="[\d.]+" y="[\d.]+" width="([\d.]+)"/g)].map((m) =>
      Number(m[1]),
    );
    const mtn = widths.slice(0, 4).reduce((a, b) => a + b, 0);
    expect(widths[4]).toBeCloseTo(mtn / 2, 0);
    expect(svg).toContain('6 of 10 messages delivered');
    expect(svg).toContain('5 of 5 messages delivered');
    expect(svg).toContain('aria-hidden="true"');
  });
});
