import type { DocumentIndex, DocumentWrite, ReadStore } from '../read-store/read-store.port';
import type { ProjectionView } from './projection';

/** Buffers a batch's writes; reads see the batch's own writes before the store's documents. */
export class BatchView implements ProjectionView {
  private readonly pending = new Map<string, DocumentWrite>();
  private readonly effects: (() => Promise<unknown>)[] = [];

  constructor(private readonly store: ReadStore) {}

  async get<T>(collection: string, id: string): Promise<T | null> {
    const write = this.pending.get(key(collection, id));
    if (write) return write.op === 'put' ? (write.doc as T) : null;
    return this.store.get<T>(collection, id);
  }

  put(collection: string, id: string, doc: unknown, index?: DocumentIndex): void {
    this.pending.set(key(collection, id), { op: 'put', collection, id, doc, index });
  }

  delete(collection: string, id: string): void {
    this.pending.set(key(collection, id), { op: 'delete', collection, id });
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
