import type { DocumentIndex, DocumentWrite, ReadStore } from '../read-store/read-store.port';
import type { ProjectionView } from './projection';

/**
 * A projection's writes not committed yet, possibly from several batches: the last write of each
 * document, read back before the store's documents.
 */
export class PendingWrites {
  private readonly writes = new Map<string, DocumentWrite>();
  /** Keys first written since the last commit (see ProjectionView.put's `fresh`). */
  private readonly fresh = new Set<string>();

  constructor(private readonly store: ReadStore) {}

  async get<T>(collection: string, id: string): Promise<T | null> {
    const write = this.writes.get(key(collection, id));
    if (write) return write.op === 'put' ? (write.doc as T) : null;
    return this.store.get<T>(collection, id);
  }

  put(collection: string, id: string, doc: unknown, index?: DocumentIndex, fresh = false): void {
    const k = key(collection, id);
    if (fresh && !this.writes.has(k)) this.fresh.add(k);
    this.writes.set(k, { op: 'put', collection, id, doc, index });
  }

  delete(collection: string, id: string): void {
    const k = key(collection, id);
    if (this.fresh.delete(k)) this.writes.delete(k);
    else this.writes.set(k, { op: 'delete', collection, id });
  }

  get size(): number {
    return this.writes.size;
  }

  list(): DocumentWrite[] {
    return [...this.writes.values()];
  }
}

/**
 * What a projection sees while it applies one batch: its writes go to the pending writes (read
 * back before the store's documents), its side effects run at the end of this batch.
 */
export class BatchView implements ProjectionView {
  private readonly effects: (() => Promise<unknown>)[] = [];
  readonly pending: PendingWrites;

  constructor(store: ReadStore, pending?: PendingWrites) {
    this.pending = pending ?? new PendingWrites(store);
  }

  get<T>(collection: string, id: string): Promise<T | null> {
    return this.pending.get<T>(collection, id);
  }

  put(
    collection: string,
    id: string,
    doc: unknown,
    index?: DocumentIndex,
    options?: { fresh?: boolean },
  ): void {
    this.pending.put(collection, id, doc, index, options?.fresh ?? false);
  }

  delete(collection: string, id: string): void {
    this.pending.delete(collection, id);
  }

  afterBatch(effect: () => Promise<unknown>): void {
    this.effects.push(effect);
  }

  /** Runs the batch's side effects concurrently; rejects if any of them failed. */
  async runEffects(): Promise<void> {
    const outcomes = await Promise.allSettled(this.effects.map((effect) => effect()));
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
  }

  writes(): DocumentWrite[] {
    return this.pending.list();
  }
}

const key = (collection: string, id: string) => `${collection}\u0000${id}`;
