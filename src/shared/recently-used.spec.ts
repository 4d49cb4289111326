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

describe('RecentlyUsed against a plain least-recently-used list', () => {
  /** The same rules on an array: slow, and obviously right. */
  class Reference {
    readonly order: [number, number][] = [];
    constructor(private readonly capacity: number) {}
    get(key: number): number | undefined {
      const at = this.order.findIndex(([k]) => k === key);
      if (at < 0) return undefined;
      const [entry] = this.order.splice(at, 1);
      this.order.push(entry);
      return entry[1];
    }
    set(key: number, value: number): void {
      const at = this.order.findIndex(([k]) => k === key);
      if (at >= 0) this.order.splice(at, 1);
      this.order.push([key, value]);
      if (this.order.length > this.capacity) this.order.shift();
    }
    delete(key: number): void {
      const at = this.order.findIndex(([k]) => k === key);
      if (at >= 0) this.order.splice(at, 1);
    }
  }

  it('holds the same entries in the same order through 50,000 mixed uses, clears included', () => {
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    const recent = new RecentlyUsed<number, number>(50);
    let reference = new Reference(50);
    for (let i = 0; i < 50_000; i++) {
      const key = random(120);
      const op = random(100);
      if (op < 50) {
        recent.set(key, i);
        reference.set(key, i);
      } else if (op < 90) {
        expect(recent.get(key)).toBe(reference.get(key));
      } else if (op < 99) {
        recent.delete(key);
        reference.delete(key);
      } else {
        recent.clear();
        reference = new Reference(50);
      }
    }
    const held = reference.order.map(([k]) => k);
    expect(recent.size).toBe(held.length);
    // Filling it with new keys evicts what it holds oldest first, as the reference would.
    const evicted: number[] = [];
    for (let k = 1000; k < 1050; k++) {
      const before = held.filter((h) => recent.has(h));
      recent.set(k, k);
      evicted.push(...before.filter((h) => !recent.has(h)));
    }
    expect(evicted).toEqual(held);
  });
});

describe('Interner', () => {
  it('holds one copy of equal strings, and at most its capacity of them', () => {
    const interned = new Interner(2);
    // Built at run time, so that they are distinct strings with equal contents.
    const copy = (text: string) => [...text].join('');
    expect([interned.of(copy('wal_1')), interned.of(copy('wal_1'))]).toEqual(['wal_1', 'wal_1']);
    expect(interned.size).toBe(1);
    expect([interned.of('wal_2'), interned.of('wal_3'), interned.of('wal_2')]).toEqual([
      'wal_2',
      'wal_3',
      'wal_2',
    ]);
    expect(interned.size).toBe(2);
  });
});
