/**
 * Messages hinted to the dispatcher and waiting for a submission slot, first hinted first taken,
 * each at most once. A Map alone kept that order, but taking its first entry after many were
 * deleted walks over every deleted slot until the table is next rebuilt: with a campaign's
 * 100,000 hints that was a scan per submission (2.3 s of the worker's 46 s in bench scenario 13).
 * Here the order is an array read from a moving head; a deleted id stays in it and is skipped.
 */
export class HintQueue<T> {
  private readonly waiting = new Map<string, T>();
  private order: string[] = [];
  private head = 0;

  get size(): number {
    return this.waiting.size;
  }

  has(id: string): boolean {
    return this.waiting.has(id);
  }

  get(id: string): T | undefined {
    return this.waiting.get(id);
  }

  /** Adds the id at the end, or changes what an id already waiting holds (its place is kept). */
  set(id: string, value: T): void {
    if (!this.waiting.has(id)) this.order.push(id);
    this.waiting.set(id, value);
  }

  delete(id: string): void {
    this.waiting.delete(id);
  }

  /** The id waiting longest, removed; undefined when none waits. */
  take(): [string, T] | undefined {
    while (this.head < this.order.length) {
      const id = this.order[this.head++];
      const value = this.waiting.get(id);
      // Deleted, or deleted and set again later (then a later place in the order holds it too).
      if (value === undefined) continue;
      this.waiting.delete(id);
      this.compact();
      return [id, value];
    }
    this.order = [];
    this.head = 0;
    return undefined;
  }

  clear(): void {
    this.waiting.clear();
    this.order = [];
    this.head = 0;
  }

  /** The taken part of the order is dropped once it is most of the array. */
  private compact(): void {
    if (this.head >= 1024 && this.head * 2 >= this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
  }
}
