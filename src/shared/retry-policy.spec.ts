import { backoffMs, windowExpired } from './retry-policy';

describe('retry policy (webhooks, mails)', () => {
  const policy = { baseMs: 10_000, maxMs: 3_600_000, windowMs: 24 * 3_600_000 };
  const mid = () => 0.5;

  it('doubles from the base and stops at the cap', () => {
    expect([1, 2, 3, 4].map((a) => backoffMs(policy, a, mid))).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(backoffMs(policy, 30, mid)).toBe(3_600_000);
    expect(backoffMs(policy, 1000, mid)).toBe(3_600_000);
  });

  it('jitters within ±10 %', () => {
    expect(backoffMs(policy, 1, () => 0)).toBe(9_000);
    expect(backoffMs(policy, 1, () => 1)).toBe(11_000);
  });

  it('gives up 24 h after the first attempt', () => {
    const first = '2026-01-01T00:00:00.000Z';
    expect(windowExpired(policy, first, new Date('2026-01-01T23:59:59.000Z'))).toBe(false);
    expect(windowExpired(policy, first, new Date('2026-01-02T00:00:00.000Z'))).toBe(true);
    expect(windowExpired(policy, null, new Date('2030-01-01T00:00:00.000Z'))).toBe(false);
  });
});
