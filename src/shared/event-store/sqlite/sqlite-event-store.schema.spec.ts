import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from './sqlite-event-store.adapter';

/** The embedded log's schema: only the indexes its reads use, on a new file and on an older one. */
describe('SqliteEventStore schema', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sms-wallet-schema-'));
    file = join(dir, 'events.sqlite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const indexes = () => {
    const db = new Database(file, { readonly: true });
    try {
      const rows = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' ORDER BY name")
        .all() as { name: string }[];
      const table = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'events'").get() as {
        sql: string;
      };
      return { names: rows.map((r) => r.name), sql: table.sql };
    } finally {
      db.close();
    }
  };

  it('creates a log without AUTOINCREMENT or a type index, whose positions still follow on', async () => {
    const store = new SqliteEventStore(file);
    const first = await store.append('wallet-1', [{ type: 'Opened', data: {} }], 'no_stream');
    await expect(store.append('wallet-1', [{ type: 'Late', data: {} }], 'no_stream')).rejects.toThrow();
    const next = await store.append('wallet-2', [{ type: 'Opened', data: {} }], 'no_stream');
    await store.close();

    expect(next.position).toBe(first.position + 1n);
    const { names, sql } = indexes();
    expect(sql).not.toMatch(/AUTOINCREMENT/);
    expect(names).toEqual(['events_by_category', 'sqlite_autoindex_events_1']);
  });

  it('drops the type index of a log created before, keeping its events and positions', async () => {
    const old = new Database(file);
    old.exec(`
      CREATE TABLE events (
        position INTEGER PRIMARY KEY AUTOINCREMENT, stream_id TEXT NOT NULL, category TEXT NOT NULL,
        revision INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT,
        recorded_at TEXT NOT NULL, UNIQUE (stream_id, revision));
      CREATE INDEX events_by_category ON events (category, position);
      CREATE INDEX events_by_type ON events (type, position);
      INSERT INTO events (stream_id, category, revision, type, data, metadata, recorded_at)
        VALUES ('wallet-1', 'wallet', 0, 'Opened', '{}', NULL, '2026-11-23T00:00:00.000Z');`);
    old.close();

    const store = new SqliteEventStore(file);
    const next = await store.append('wallet-1', [{ type: 'Added', data: {} }], 0n);
    const events = await store.readAll({ filter: { eventTypes: ['Opened', 'Added'] } });
    await store.close();

    expect(next.position).toBe(2n);
    expect(events.map((e) => e.type)).toEqual(['Opened', 'Added']);
    expect(indexes().names).toEqual(['events_by_category', 'sqlite_autoindex_events_1']);
  });
});
