import type Database from 'better-sqlite3';
import { openSqlite } from '../../sqlite/sqlite-database';
import { guarded } from '../../sqlite/sqlite-errors';
import type { DocumentWrite, ListQuery, ReadStore } from '../read-store.port';

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

/** The embedded read store: documents as JSON text in one SQLite file, beside their checkpoints. */
export class SqliteReadStore implements ReadStore {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(file: string) {
    this.db = openSqlite(file);
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
      clearCollection: this.db.prepare('DELETE FROM documents WHERE collection = ?'),
      clearCheckpoint: this.db.prepare('DELETE FROM checkpoints WHERE projection = ?'),
    };
  }

  async get<T>(collection: string, id: string): Promise<T | null> {
    const row = guarded('get', () => this.statements.get.get(collection, id)) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as T) : null;
  }

  async list<T>(collection: string, query: ListQuery): Promise<T[]> {
    const { partition, afterSort, limit } = query;
    const rows = guarded('list', () => {
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

  async checkpoint(projection: string): Promise<bigint | null> {
    const row = guarded('checkpoint', () => this.statements.checkpoint.get(projection)) as
      { position: bigint } | undefined;
    return row ? BigInt(row.position) : null;
  }

  async commit(
    projection: string,
    writes: readonly DocumentWrite[],
    checkpoint: bigint,
    previous?: bigint | null,
  ): Promise<boolean> {
    return guarded('commit', () =>
      this.db
        .transaction(() => {
          // Compare-and-set inside the IMMEDIATE transaction: no other process commits in between.
          if (previous !== undefined) {
            const row = this.statements.checkpoint.get(projection) as { position: bigint } | undefined;
            const stored = row ? BigInt(row.position) : null;
            if (stored !== previous) return false;
          }
          for (const write of writes) {
            if (write.op === 'put') {
              this.statements.put.run(
                write.collection,
                write.id,
                write.index?.partition ?? null,
                write.index?.sort ?? null,
                JSON.stringify(write.doc),
              );
            } else {
              this.statements.delete.run(write.collection, write.id);
            }
          }
          this.statements.saveCheckpoint.run(projection, checkpoint);
          return true;
        })
        .immediate(),
    );
  }

  async reset(projection: string, collections: readonly string[]): Promise<void> {
    guarded('reset', () =>
      this.db
        .transaction(() => {
          for (const collection of collections) this.statements.clearCollection.run(collection);
          this.statements.clearCheckpoint.run(projection);
        })
        .immediate(),
    );
  }

  async ping(): Promise<void> {
    guarded('ping', () => this.db.prepare('SELECT 1').get());
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
