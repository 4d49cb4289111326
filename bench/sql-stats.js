'use strict';
/**
 * Preloaded into the servers with BENCH_SQL_STATS=dir (node -r): counts every SQLite statement
 * each thread of the process runs, and the time spent in it, by statement text (and collection or projection
 * for the read store's). Written to dir/sql-<pid>[-thread<n>].txt when the thread exits, costliest first:
 * the profile that tells which queries a message costs and how many of each.
 */
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { threadId } = require('node:worker_threads');
const Database = require('better-sqlite3');

const dir = process.env.BENCH_SQL_STATS;
const stats = new Map();
const probe = new Database(':memory:');
const Statement = Object.getPrototypeOf(probe.prepare('SELECT 1'));
probe.close();

for (const method of ['run', 'get', 'all']) {
  const original = Statement[method];
  Statement[method] = function timed(...args) {
    const started = process.hrtime.bigint();
    try {
      return original.apply(this, args);
    } finally {
      const text = this.source.replace(/\s+/g, ' ').slice(0, 90);
      // The read store's statements differ by collection (documents) or projection (checkpoints).
      const key = `${method} ${text}${/documents|checkpoints/.test(text) ? ` [${args[0]}]` : ''}`;
      const entry = stats.get(key) ?? { count: 0, ns: 0n };
      entry.count += 1;
      entry.ns += process.hrtime.bigint() - started;
      stats.set(key, entry);
    }
  };
}

process.on('exit', () => {
  const rows = [...stats].sort((a, b) => Number(b[1].ns - a[1].ns));
  const lines = rows.map(([key, { count, ns }]) => {
    const ms = Number(ns) / 1e6;
    return `${String(count).padStart(9)} ${ms.toFixed(0).padStart(8)} ms ${((ms * 1000) / count).toFixed(1).padStart(8)} µs  ${key}`;
  });
  writeFileSync(join(dir, `sql-${process.pid}${threadId ? `-thread${threadId}` : ''}.txt`), `${'    count     total     each  statement'}\n${lines.join('\n')}\n`);
});
