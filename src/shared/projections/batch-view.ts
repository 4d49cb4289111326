import type { DocumentIndex, DocumentWrite, ReadStore } from '../read-store/read-store.port';
import type { ProjectionView } from './projection';

/** Buffers a batch's writes; reads see the batch's own writes before the store's documents. */
export class BatchView implements ProjectionView {
  private readonly pending = new Map<string, DocumentWrite>();
  /** Keys first written by this batch (see ProjectionView.put's `fresh`). */
  private readonly fresh = new Set<string>();
  private readonly effects: (() => Promise<unknown>)[] = [];

  constructor(private readonly store: ReadStore) {}

  async get<T>(collection: string, id: string): Promise<T | null> {
    const write = this.pending.get(key(collection, id));
    if (write) return write.op === 'put' ? (write.doc as T) : null;
    return this.store.get<T>(collection, id);
  }

  put(
    collection: string,
    id: string,
    doc: unknown,
    index?: DocumentIndex,
    options?: { fresh?: boolean },
  ): void {
    const k = key(collection, id);
    if (options?.fresh && !this.pending.has(k)) this.fresh.add(k);
    this.pending.set(k, { op: 'put', collection, id, doc, index });
  }

  delete(collection: string, id: string): void {
    const k = key(collection, id);
    if (this.fresh.delete(k)) this.pending.delete(k);
    else this.pending.set(k, { op: 'delete', collection, id });
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
    return [...this.pending.values()];
  }
}

const key = (collection: string, id: string) => `${collection}\u0000${id}`;
