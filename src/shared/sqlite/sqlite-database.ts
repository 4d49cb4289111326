import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Opens one SQLite file the way every embedded store here uses it: WAL so readers never block
 * the writer, NORMAL sync (a process crash loses nothing; only power loss can drop the newest
 * commits), and a busy timeout so the operator CLI and the server can share the files.
 */
export function openSqlite(file: string): Database.Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return db;
}
