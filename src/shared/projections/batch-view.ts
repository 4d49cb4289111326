import type { DocumentIndex, DocumentWrite, ReadStore } from '../read-store/read-store.port';
import { RecentlyUsed } from '../recently-used';
import type { ProjectionView } from './projection';

/**
 * The documents of a projection's own collections as it last committed or read them: most events
 * update a document the projection wrote a moment before (a message's queued, sent and delivered
 * states), and reading it back from the store was most of a read model's cost per event. Only
 * collections the projection owns are held (it is their one writer; others' documents are read
 * from the store each time); the runner drops everything when the projection resumes from its
 * stored checkpoint, as another process may have written since.
 */
export class CommittedDocuments {
  private readonly docs: RecentlyUsed<string, unknown>;
  private readonly owned: ReadonlySet<string>;

  constructor(collections: readonly string[], capacity = 512) {
    this.owned = new Set(collections);
    this.docs = new RecentlyUsed(capacity);
  }

  /** The held document (null: known not to exist), or undefined when it must be read. */
  find(collection: string, id: string): unknown {
    return this.owned.has(collection) ? this.docs.get(key(collection, id)) : undefined;
  }

  remember(collection: string, id: string, doc: unknown): void {
    if (this.owned.has(collection)) this.docs.set(key(collection, id), doc);
  }

  /** What a successful commit wrote is what the store now holds. */
  committed(writes: readonly DocumentWrite[]): void {
    for (const write of writes) this.remember(write.collection, write.id, write.op === 'put' ? write.doc : null);
  }

  clear(): void {
    this.docs.clear();
  }
}

/**
 * A projection's writes not committed yet, possibly from several batches: the last write of each
 * document, read back before the store's documents.
 */
export class PendingWrites {
  private readonly writes = new Map<string, DocumentWrite>();
  /** Keys first written since the last commit (see ProjectionView.put's `fresh`). */
  private readonly fresh = new Set<string>();

  constructor(
    private readonly store: ReadStore,
    private readonly committed?: CommittedDocuments,
  ) {}

  async get<T>(collection: string, id: string): Promise<T | null> {
    const write = this.writes.get(key(collection, id));
    if (write) return write.op === 'put' ? (write.doc as T) : null;
    if (!this.committed) return this.store.get<T>(collection, id);
    const held = this.committed.find(collection, id);
    if (held !== undefined) return held as T | null;
    const stored = await this.store.get<T>(collection, id);
    this.committed.remember(collection, id, stored);
    return stored;
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

  constructor(store: ReadStore, pending?: PendingWrites, committed?: CommittedDocuments) {
    this.pending = pending ?? new PendingWrites(store, committed);
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
