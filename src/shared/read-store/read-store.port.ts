/**
 * The read store port: documents that projections keep up to date from the event log, each
 * projection with its own checkpoint. Documents are found by id, or listed within a partition
 * (say, a wallet) in the order of a sort key (say, creation time).
 */
export const READ_STORE = Symbol('READ_STORE');

export interface DocumentIndex {
  /** The group a document is listed in, e.g. a wallet id. */
  readonly partition: string;
  /** The order within the partition; compared as text, so use ISO times or zero-padded numbers. */
  readonly sort: string;
}

export type DocumentWrite =
  | {
      readonly op: 'put';
      readonly collection: string;
      readonly id: string;
      readonly doc: unknown;
      readonly index?: DocumentIndex;
    }
  | { readonly op: 'delete'; readonly collection: string; readonly id: string };

export interface ListQuery {
  readonly partition: string;
  readonly order: 'asc' | 'desc';
  readonly limit: number;
  /** Exclusive: start after the document with this sort key. */
  readonly afterSort?: string;
  /** Only documents whose sort key starts with this text (a search by prefix, one index range). */
  readonly sortPrefix?: string;
}

/**
 * The upper end of a prefix's range of sort keys: U+10FFFF is the greatest code point, so in the
 * stores' binary order (UTF-8 bytes, as SQLite and MongoDB compare text) every key that starts
 * with the prefix sorts below the prefix followed by it. Adapters also check the prefix itself.
 */
export const prefixUpperBound = (prefix: string) => `${prefix}\u{10FFFF}`;

export interface ReadStore {
  get<T>(collection: string, id: string): Promise<T | null>;
  list<T>(collection: string, query: ListQuery): Promise<T[]>;
  /** How many documents one partition of a collection lists (a gauge's backlog, say). */
  count(collection: string, partition: string): Promise<number>;
  /** The last log position the projection has applied, `null` if it never ran. */
  checkpoint(projection: string): Promise<bigint | null>;
  /**
   * Writes the documents and moves the checkpoint in one atomic step. With `previous` (the
   * checkpoint the batch was computed from, `null` for none) it applies only while the stored
   * checkpoint still equals it, and answers false otherwise: another process running the same
   * projection on the same store committed first, and this batch must not be applied twice.
   * Without `previous` the commit is unconditional (answers true).
   */
  commit(
    projection: string,
    writes: readonly DocumentWrite[],
    checkpoint: bigint,
    previous?: bigint | null,
  ): Promise<boolean>;
  /** Forgets a projection's documents and checkpoint so it can be rebuilt from zero. */
  reset(projection: string, collections: readonly string[]): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
