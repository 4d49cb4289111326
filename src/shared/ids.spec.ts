import { base62, isIdOf, newId, randomToken } from './ids';

describe('ids', () => {
  it('are the prefix, 8 characters of time and 14 random ones, and look like ids', () => {
    const id = newId('msg');
    expect(id).toMatch(/^msg_[0-9A-Za-z]{22}$/);
    expect(isIdOf('msg', id)).toBe(true);
    expect(isIdOf('chk', id)).toBe(false);
  });

  it('sort by creation time as text (SQLite compares them byte by byte)', () => {
    const times = [0, 61, 62, 3_843, 1_700_000_000_000, 1_800_000_000_000, 62 ** 8 - 1];
    const ids = times.map((t) => newId('msg', t));
    expect([...ids].sort()).toEqual(ids);
    expect(ids.slice(0, 3).map((id) => id.slice(4, 12))).toEqual(['00000000', '0000000z', '00000010']);
  });

  it('base62 pads to the width', () => {
    expect(base62(0, 3)).toBe('000');
    expect(base62(62n, 3)).toBe('010');
    expect(base62(61, 1)).toBe('z');
  });

  it('random tokens use the whole alphabet evenly and never repeat', () => {
    const seen = new Set<string>();
    const counts = new Map<string, number>();
    for (let i = 0; i < 5_000; i++) {
      const token = randomToken(22);
      expect(token).toMatch(/^[0-9A-Za-z]{22}$/);
      seen.add(token);
      for (const c of token) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect(seen.size).toBe(5_000);
    expect(counts.size).toBe(62);
    // 110,000 characters over 62 symbols: about 1,774 each; a biased draw would stray far.
    for (const n of counts.values()) expect(Math.abs(n - 110_000 / 62)).toBeLessThan(250);
  });
});
