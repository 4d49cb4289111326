import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, sqliteOptions } from '../../config/app-config';
import { openSqlite } from './sqlite-database';

describe('openSqlite', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sms-wallet-sqlite-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const cacheOf = (options: Parameters<typeof openSqlite>[1]) => {
    const db = openSqlite(join(dir, 'a.db'), options);
    try {
      return db.pragma('cache_size', { simple: true });
    } finally {
      db.close();
    }
  };

  it('gives each connection the page cache it is told (KiB), not the library’s 16 MB', () => {
    expect(cacheOf({})).toBe(-16000);
    expect(cacheOf({ pageCacheKiB: 2048 })).toBe(-2048);
  });

  it('keeps statement journals in memory: no temporary files in /var/tmp (2 is MEMORY)', () => {
    const db = openSqlite(join(dir, 'a.db'));
    try {
      expect(db.pragma('temp_store', { simple: true })).toBe(2);
    } finally {
      db.close();
    }
  });

  it('takes the server’s page cache from SQLITE_PAGE_CACHE_KIB, 2 MB unless set', () => {
    expect(sqliteOptions(loadConfig({})).pageCacheKiB).toBe(2048);
    expect(sqliteOptions(loadConfig({ SQLITE_PAGE_CACHE_KIB: '8192' })).pageCacheKiB).toBe(8192);
    expect(sqliteOptions(loadConfig({ SQLITE_PAGE_CACHE_KIB: '1' })).pageCacheKiB).toBe(128);
  });
});
