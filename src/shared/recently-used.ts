/**
 * A map that keeps at most `capacity` entries and forgets the least recently used one first:
 * the bound on every in-memory "what this process saw lately" (states, stream tails, ids).
 * Map iteration follows insertion order, so reinserting an entry on use keeps the oldest first.
 *
 * The oldest entry is found by one iterator kept from eviction to eviction, not a fresh one each
 * time: a Map's deleted slots stay in its table until it is rebuilt, and a fresh iterator walks
 * every one of them from the start (each use moves an entry, leaving a slot behind). Under a
 * campaign that walk was 3% of the worker thread (the message states, the read models' documents);
 * a kept iterator passes each slot once. A live Map iterator sees what is added after it was made
 * and skips what is deleted, so what it gives next is always the oldest entry left.
 */
export class RecentlyUsed<K, V> {
  private readonly entries = new Map<K, V>();
  /** Where the next eviction looks; everything it passed was evicted. Null: start afresh. */
  private oldest: IterableIterator<K> | null = null;

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
    if (this.entries.size > this.capacity) this.evictOldest();
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.oldest = null;
  }

  private evictOldest(): void {
    let next = this.oldest?.next();
    // An iterator that reached the end stays there, whatever is added after: a new one starts.
    if (!next || next.done) {
      this.oldest = this.entries.keys();
      next = this.oldest.next();
    }
    this.entries.delete(next.value as K);
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
