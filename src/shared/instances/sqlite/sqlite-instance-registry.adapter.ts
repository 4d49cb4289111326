import type Database from 'better-sqlite3';
import { openSqlite, SqliteOptions } from '../../sqlite/sqlite-database';
import { guarded } from '../../sqlite/sqlite-errors';
import type { InstanceRecord, InstanceRegistry } from '../instance-registry.port';

interface Row {
  id: string;
  host: string | null;
  pid: number;
  started_at: string;
  beat_at: string;
  stopped_at: string | null;
}

/**
 * The instance registry in a table of the embedded read store's file (read.db), which every
 * process on the machine with the same DATA_DIR opens: one upsert per heartbeat.
 */
export class SqliteInstanceRegistry implements InstanceRegistry {
  private readonly db: Database.Database;
  private readonly statements: {
    beat: Database.Statement;
    stopped: Database.Statement;
    list: Database.Statement;
    forget: Database.Statement;
  };

  constructor(file: string, options: SqliteOptions = {}) {
    this.db = openSqlite(file, options);
    this.db.exec(`CREATE TABLE IF NOT EXISTS instances (
      id TEXT PRIMARY KEY,
      host TEXT,
      pid INTEGER NOT NULL,
      started_at TEXT NOT NULL,
      beat_at TEXT NOT NULL,
      stopped_at TEXT
    )`);
    this.statements = {
      beat: this.db.prepare(
        `INSERT INTO instances (id, host, pid, started_at, beat_at, stopped_at)
         VALUES (@id, @host, @pid, @startedAt, @beatAt, NULL)
         ON CONFLICT (id) DO UPDATE SET beat_at = excluded.beat_at`,
      ),
      stopped: this.db.prepare('UPDATE instances SET stopped_at = ? WHERE id = ?'),
      list: this.db.prepare('SELECT id, host, pid, started_at, beat_at, stopped_at FROM instances'),
      forget: this.db.prepare('DELETE FROM instances WHERE beat_at < ?'),
    };
  }

  async beat(record: Omit<InstanceRecord, 'stoppedAt'>): Promise<void> {
    guarded('instances beat', () => this.statements.beat.run(record));
  }

  async stopped(id: string, at: string): Promise<void> {
    guarded('instances stopped', () => this.statements.stopped.run(at, id));
  }

  async list(): Promise<InstanceRecord[]> {
    const rows = guarded('instances list', () => this.statements.list.all() as Row[]);
    return rows.map((r) => ({
      id: r.id,
      host: r.host,
      pid: r.pid,
      startedAt: r.started_at,
      beatAt: r.beat_at,
      stoppedAt: r.stopped_at,
    }));
  }

  async forget(before: string): Promise<void> {
    guarded('instances forget', () => this.statements.forget.run(before));
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
