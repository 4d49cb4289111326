import { RecentlyUsed } from './recently-used';

describe('RecentlyUsed', () => {
  it('forgets the least recently used entry beyond its capacity', () => {
    const recent = new RecentlyUsed<string, number>(2);
    recent.set('a', 1);
    recent.set('b', 2);
    expect(recent.get('a')).toBe(1); // a is now more recent than b
    recent.set('c', 3);
    expect(recent.has('b')).toBe(false);
    expect([recent.get('a'), recent.get('c'), recent.size]).toEqual([1, 3, 2]);
  });

  it('peek does not count as a use; setting again replaces and refreshes', () => {
    const recent = new RecentlyUsed<string, number>(2);
    recent.set('a', 1);
    recent.set('b', 2);
    expect(recent.peek('a')).toBe(1);
    recent.set('c', 3); // a was only peeked at: it goes
    expect(recent.has('a')).toBe(false);
    recent.set('b', 20);
    recent.set('d', 4); // b was set again after c: c goes
    expect([recent.peek('b'), recent.has('c'), recent.peek('d')]).toEqual([20, false, 4]);
    recent.delete('b');
    recent.clear();
    expect(recent.size).toBe(0);
  });
});
