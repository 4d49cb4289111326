import { TokenBuckets } from './token-bucket';

describe('TokenBuckets', () => {
  it('refills at the rate up to the burst and says when the next token comes', () => {
    let now = 0;
    const buckets = new TokenBuckets({ perSecond: 1, burst: 2 }, Infinity, () => now);
    expect([buckets.take('a'), buckets.take('a'), buckets.take('a')]).toEqual([0, 0, 1]);
    expect(buckets.take('b')).toBe(0);
    now += 1000;
    expect(buckets.take('a')).toBe(0);
  });

  it('takes several tokens at once, all or none (a batch takes one per item)', () => {
    let now = 0;
    const buckets = new TokenBuckets({ perSecond: 10, burst: 100 }, Infinity, () => now);
    expect(buckets.take('wallet', 100)).toBe(0);
    expect(buckets.take('wallet', 30)).toBe(3); // 30 more come in 3 s
    now += 1000;
    expect(buckets.take('wallet', 30)).toBe(2); // nothing was taken by the refusal
    now += 2000;
    expect(buckets.take('wallet', 30)).toBe(0);
  });

  it('holds at most `capacity` buckets, forgetting the oldest first', () => {
    const buckets = new TokenBuckets({ perSecond: 1, burst: 1 }, 3, () => 0);
    for (let i = 0; i < 1000; i++) buckets.take(`client-${i}`);
    expect(buckets.size).toBe(3);
    expect(buckets.take('client-999')).toBe(1); // the newest is still held (and empty)
    expect(buckets.take('client-0')).toBe(0); // the oldest was forgotten: a fresh bucket
  });
});
