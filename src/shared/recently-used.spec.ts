import { Interner, RecentlyUsed } from './recently-used';

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

describe('Interner', () => {
  it('holds one copy of equal strings, and at most its capacity of them', () => {
    const interned = new Interner(2);
    // Built at run time, so that they are distinct strings with equal contents.
    const copy = (text: string) => [...text].join('');
    expect([interned.of(copy('wal_1')), interned.of(copy('wal_1'))]).toEqual(['wal_1', 'wal_1']);
    expect(interned.size).toBe(1);
    expect([interned.of('wal_2'), interned.of('wal_3'), interned.of('wal_2')]).toEqual(['wal_2', 'wal_3', 'wal_2']);
    expect(interned.size).toBe(2);
  });
});
