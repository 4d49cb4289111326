// @ts-check
'use strict';
/**
 * Builds dist/ (scripts/build.js) only when it is missing or older than its sources
 * (build-stamp.js: a check of a few hundred file times, milliseconds). Used by `npm start`
 * before it runs the server, and by `npm run cli`. The build's output goes to stderr, so
 * stdout stays the server's JSON log lines or the CLI's one JSON line.
 */
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');
const { staleReason } = require('./build-stamp');

const ROOT = join(__dirname, '..');

/** @returns {number} 0 when dist/ is current (or was just built), else the build's exit code */
function buildIfStale(who) {
  const stale = staleReason(ROOT);
  if (!stale) return 0;
  process.stderr.write(`${who}: building dist/ first (${stale})\n`);
  const build = spawnSync(process.execPath, [join(__dirname, 'build.js')], {
    cwd: ROOT,
    stdio: ['ignore', process.stderr, process.stderr],
  });
  return build.status ?? 1;
}

module.exports = { buildIfStale };

if (require.main === module) {
  const status = buildIfStale(process.argv[2] ?? 'build');
  if (status !== 0) process.stderr.write('the build failed; see the compiler output above\n');
  process.exit(status);
}
