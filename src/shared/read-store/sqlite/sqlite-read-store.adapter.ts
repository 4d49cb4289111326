import type Database from 'better-sqlite3';
import { openSqlite, SqliteOptions } from '../../sqlite/sqlite-database';
import { GroupCommit } from '../../sqlite/group-commit';
import { guarded } from '../../sqlite/sqlite-errors';
import { prefixUpperBound, type DocumentWrite, type ListQuery, type ReadStore } from '../read-store.port';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS documents (
  collection TEXT NOT NULL,
  id         TEXT NOT NULL,
  partition  TEXT,
  sort       TEXT,
  doc        TEXT NOT NULL,
  PRIMARY KEY (collection, id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS documents_listing ON documents (collection, partition, sort);
CREATE TABLE IF NOT EXISTS checkpoints (
  projection TEXT PRIMARY KEY,
  position   INTEGER NOT NULL
);
`;

/** A document write as it is stored: the document already serialized. */
type StoredWrite =
  | {
      readonly op: 'put';
      readonly collection: string;
      readonly id: string;
      readonly partition: string | null;
      readonly sort: string | null;
      readonly doc: string;
    }
  | { readonly op: 'delete'; readonly collection: string; readonly id: string };

interface CommitRequest {
  readonly projection: string;
  readonly writes: readonly StoredWrite[];
  readonly checkpoint: bigint;
  readonly previous: bigint | null | undefined;
}

/** The embedded read store: documents as JSON text in one SQLite file, beside their checkpoints. */
export class SqliteReadStore implements ReadStore {
  private readonly db: Database.Database;
  private readonly statements;
  // Transaction functions are built once: wrapping a fresh closure per call cost more than the query.
  private readonly commits: GroupCommit<CommitRequest, boolean>;
  private readonly resetTransaction;

  constructor(file: string, options: SqliteOptions = {}) {
    this.db = openSqlite(file, options);
    this.db.exec(SCHEMA);
    this.statements = {
      get: this.db.prepare('SELECT doc FROM documents WHERE collection = ? AND id = ?'),
      put: this.db.prepare(
        `INSERT INTO documents (collection, id, partition, sort, doc) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (collection, id) DO UPDATE SET partition = excluded.partition, sort = excluded.sort, doc = excluded.doc`,
      ),
      delete: this.db.prepare('DELETE FROM documents WHERE collection = ? AND id = ?'),
      checkpoint: this.db.prepare('SELECT position FROM checkpoints WHERE projection = ?').safeIntegers(true),
      saveCheckpoint: this.db.prepare(
        'INSERT INTO checkpoints (projection, position) VALUES (?, ?) ON CONFLICT (projection) DO UPDATE SET position = excluded.position',
      ),
      // Without afterSort there is no bound at all: any stand-in ('' or '\uffff') would hide
      // documents whose sort key is empty or starts beyond the Basic Multilingual Plane.
      listAsc: this.db.prepare(
        'SELECT doc FROM documents WHERE collection = ? AND partition = ? ORDER BY sort ASC LIMIT ?',
      ),
      listAscAfter: this.db.prepare(
        'SELECT doc FROM documents WHERE collection = ? AND partition = ? AND sort > ? ORDER BY sort ASC LIMIT ?',
      ),
      listDesc: this.db.prepare(
        'SELECT doc FROM documents WHERE collection = ? AND partition = ? ORDER BY sort DESC LIMIT ?',
      ),
      listDescAfter: this.db.prepare(
        'SELECT doc FROM documents WHERE collection = ? AND partition = ? AND sort < ? ORDER BY sort DESC LIMIT ?',
      ),
      // A prefix is one range of the listing index; substr() makes it exact whatever follows.
      listPrefix: (['ASC', 'DESC'] as const).map((order) =>
        [false, true].map((after) =>
          this.db.prepare(
            `SELECT doc FROM documents WHERE collection = ? AND partition = ? AND sort >= ? AND sort < ?
             AND substr(sort, 1, length(?)) = ?${after ? ` AND sort ${order === 'ASC' ? '>' : '<'} ?` : ''}
             ORDER BY sort ${order} LIMIT ?`,
          ),
        ),
      ),
      count: this.db.prepare('SELECT count(*) AS n FROM documents WHERE collection = ? AND partition = ?'),
      clearCollection: this.db.prepare('DELETE FROM documents WHERE collection = ?'),
      clearCheckpoint: this.db.prepare('DELETE FROM checkpoints WHERE projection = ?'),
    };
    this.commits = new GroupCommit(this.db, { operation: 'commit', write: (request) => this.write(request) });
    this.resetTransaction = this.db.transaction((projection: string, collections: readonly string[]) => {
      for (const collection of collections) this.statements.clearCollection.run(collection);
      this.statements.clearCheckpoint.run(projection);
    });
  }

  async get<T>(collection: string, id: string): Promise<T | null> {
    const row = guarded('get', () => this.statements.get.get(collection, id)) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as T) : null;
  }

  async list<T>(collection: string, query: ListQuery): Promise<T[]> {
    const { partition, afterSort, limit, sortPrefix } = query;
    const rows = guarded('list', () => {
      if (sortPrefix !== undefined) {
        const statement =
          this.statements.listPrefix[query.order === 'asc' ? 0 : 1][afterSort === undefined ? 0 : 1];
        const range = [sortPrefix, prefixUpperBound(sortPrefix), sortPrefix, sortPrefix];
        return afterSort === undefined
          ? statement.all(collection, partition, ...range, limit)
          : statement.all(collection, partition, ...range, afterSort, limit);
      }
      if (query.order === 'asc') {
        return afterSort === undefined
          ? this.statements.listAsc.all(collection, partition, limit)
          : this.statements.listAscAfter.all(collection, partition, afterSort, limit);
      }
      return afterSort === undefined
        ? this.statements.listDesc.all(collection, partition, limit)
        : this.statements.listDescAfter.all(collection, partition, afterSort, limit);
    }) as { doc: string }[];
    return rows.map((row) => JSON.parse(row.doc) as T);
  }

  async count(collection: string, partition: string): Promise<number> {
    const row = guarded('count', () => this.statements.count.get(collection, partition)) as { n: number };
    return row.n;
  }

  async checkpoint(projection: string): Promise<bigint | null> {
    const row = guarded('checkpoint', () => this.statements.checkpoint.get(projection)) as
      { position: bigint } | undefined;
    return row ? BigInt(row.position) : null;
  }

  /**
   * Commits are group-committed (GroupCommit): a dozen projections each commit small batches,
   * and every commit requested in one turn of the event loop shares one transaction, each in
   * its own savepoint, so a lost compare-and-set refuses only that commit.
   */
  commit(
    projection: string,
    writes: readonly DocumentWrite[],
    checkpoint: bigint,
    previous?: bigint | null,
  ): Promise<boolean> {
    let stored: StoredWrite[];
    try {
      stored = writes.map(toStored);
    } catch (error) {
      // Serialized now, not at the flush: a document that cannot be stored fails its own commit
      // only, and what is written is the documents as they were when the commit was asked for.
      return Promise.reject(error);
    }
    return this.commits.submit({ projection, writes: stored, checkpoint, previous });
  }

  /** One commit inside the group's transaction; a lost compare-and-set is an answer, not an error. */
  private write({ projection, writes, checkpoint, previous }: CommitRequest): boolean {
    // Compare-and-set inside the IMMEDIATE transaction: no other process commits in between,
    // and an earlier commit of the same projection in this batch is already visible.
    if (previous !== undefined) {
      const row = this.statements.checkpoint.get(projection) as { position: bigint } | undefined;
      const current = row ? BigInt(row.position) : null;
      if (current !== previous) return false;
    }
    for (const write of writes) {
      if (write.op === 'put') {
        this.statements.put.run(write.collection, write.id, write.partition, write.sort, write.doc);
      } else {
        this.statements.delete.run(write.collection, write.id);
      }
    }
    this.statements.saveCheckpoint.run(projection, checkpoint);
    return true;
  }

  async reset(projection: string, collections: readonly string[]): Promise<void> {
    // Commits asked for before the reset must not land after it and revive what it forgets.
    this.commits.flush();
    guarded('reset', () => this.resetTransaction.immediate(projection, collections));
  }

  async ping(): Promise<void> {
    guarded('ping', () => this.db.prepare('SELECT 1').get());
  }

  async close(): Promise<void> {
    this.commits.flush(); // write what was asked before closing
    if (this.db.open) this.db.close();
  }
}

function toStored(write: DocumentWrite): StoredWrite {
  if (write.op === 'delete') return { op: 'delete', collection: write.collection, id: write.id };
  const doc: string | undefined = JSON.stringify(write.doc);
  // Caught here rather than by the NOT NULL column, which would fail the whole batch.
  if (doc === undefined) throw new TypeError(`document ${write.collection}/${write.id} is not JSON`);
  return {
    op: 'put',
    collection: write.collection,
    id: write.id,
    partition: write.index?.partition ?? null,
    sort: write.index?.sort ?? null,
    doc,
  };
}
