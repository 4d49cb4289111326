// @ts-check
'use strict';
/**
 * `npm run build`: compiles src/ to dist/ with tsc, bundles the operator CLI into one file
 * (dist/cli/main.bundle.js), and stamps the build (see build-stamp.js).
 *
 * Why a bundle: the CLI's start-up is spent loading about 1,200 small files (Nest, rxjs,
 * class-validator, the app); one file loads in half the time, which is what lets
 * `npm run cli -- routes:list` answer in well under a second. It is built from tsc's output,
 * so the decorator metadata Nest injects by is the compiler's own. It also refreshes the console's
 * browser bundles (build-browser.js).
 */
const { buildSync } = require('esbuild');
const { spawnSync } = require('node:child_process');
const { mkdirSync, rmSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { CLI_BUNDLE, writeStamp } = require('./build-stamp');
const { buildBrowserScripts } = require('./build-browser');

const ROOT = join(__dirname, '..');
/** One build at a time (two `npm run cli` on a stale dist/, or one beside `npm start`). */
const LOCK = join(ROOT, 'dist/.build-lock');
/** A lock this old was left by a build that died: take it over. */
const STALE_LOCK_MS = 10 * 60 * 1000;

/**
 * Left to require() at run time: a native module, the production store drivers (loaded only
 * when their URL is set), and the optional packages Nest probes for inside try/catch.
 */
const EXTERNAL = [
  'better-sqlite3',
  'mongodb',
  '@eventstore/db-client',
  '@nestjs/microservices',
  '@nestjs/microservices/*',
  '@nestjs/websockets',
  '@nestjs/websockets/*',
  '@nestjs/platform-express',
  'class-transformer/storage',
];

function lock() {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      return;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
      if (Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200); // sleep 200 ms
    }
  }
}

/** @returns {number} the exit code */
function build() {
  const startedAt = Date.now();
  const tsc = spawnSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (tsc.status !== 0) return tsc.status ?? 1;
  // A code cache belongs to one bundle; scripts/cli.js writes a new one after the next run.
  rmSync(join(ROOT, CLI_BUNDLE.replace(/\.js$/, '.cache')), { force: true });
  buildSync({
    entryPoints: [join(ROOT, 'dist/cli/main.js')],
    outfile: join(ROOT, CLI_BUNDLE),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: EXTERNAL,
    logLevel: 'error',
  });
  buildBrowserScripts();
  writeStamp(ROOT, startedAt);
  return 0;
}

lock();
let status = 1;
try {
  status = build();
} finally {
  rmSync(LOCK, { recursive: true, force: true });
}
process.exit(status);
