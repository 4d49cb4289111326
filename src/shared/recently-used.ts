/**
 * A map that keeps at most `capacity` entries and forgets the least recently used one first:
 * the bound on every in-memory "what this process saw lately" (states, stream tails, ids).
 * Map iteration follows insertion order, so reinserting an entry on use keeps the oldest first.
 */
export class RecentlyUsed<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** The entry, now the most recently used; undefined when not held. */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** The entry without counting as a use. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * One copy of each recently seen string. Every event read from the log is parsed into new
 * strings, so a cache that keeps a value from each of 100,000 messages (their wallet's id) keeps
 * 100,000 copies of the same few ids (5.8 MB of the worker's heap behind a campaign of 100,000)
 * unless it keeps the interned one.
 */
export class Interner {
  private readonly held: RecentlyUsed<string, string>;

  constructor(capacity: number) {
    this.held = new RecentlyUsed(capacity);
  }

  /** How many distinct strings it holds. */
  get size(): number {
    return this.held.size;
  }

  /** The copy held of a string equal to `value`, else `value`, held from now on. */
  of(value: string): string {
    const copy = this.held.peek(value);
    if (copy !== undefined) return copy;
    this.held.set(value, value);
    return value;
  }
}
