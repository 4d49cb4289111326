import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export interface SqliteOptions {
  /**
   * False when another thread checkpoints the file's WAL (WalCheckpointer): copying the WAL back
   * into the database, with its fsync, was half of what a small commit cost this thread.
   */
  readonly autoCheckpoint?: boolean;
  /**
   * The connection's page cache, in KiB (SQLITE_PAGE_CACHE_KIB). Unset: better-sqlite3's 16 MB,
   * which each of the server's connections filled and kept after a burst of writes.
   */
  readonly pageCacheKiB?: number;
}

/**
 * Opens one SQLite file the way every embedded store here uses it: WAL so readers never block
 * the writer, NORMAL sync (a process crash loses nothing; only power loss can drop the newest
 * commits), and a busy timeout so the operator CLI and the server can share the files.
 */
export function openSqlite(file: string, options: SqliteOptions = {}): Database.Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  // A savepoint's statement journal (each group-commit member has one) is kept in memory: on disk
  // SQLite created and unlinked a file in /var/tmp for every large commit (a syscall run each,
  // and a failure where that directory is read-only).
  db.pragma('temp_store = MEMORY');
  // Once checkpointed, a WAL that grew under a burst is cut back to this size.
  db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  if (options.autoCheckpoint === false) db.pragma('wal_autocheckpoint = 0');
  if (options.pageCacheKiB !== undefined) db.pragma(`cache_size = -${Math.floor(options.pageCacheKiB)}`);
  return db;
}
