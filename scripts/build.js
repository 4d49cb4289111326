// @ts-check
'use strict';
/**
 * `npm run build`: compiles src/ to dist/ with tsc, bundles the operator CLI into one file
 * (dist/cli/main.bundle.js), and stamps the build (see build-stamp.js).
 *
 * Why a bundle: the CLI's start-up is spent loading about 1,200 small files (Nest, rxjs,
 * class-validator, the app); one file loads in half the time, which is what lets
 * `npm run cli -- routes:list` answer in well under a second. It is built from tsc's output,
 * so the decorator metadata Nest injects by is the compiler's own.
 */
const { buildSync } = require('esbuild');
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');
const { CLI_BUNDLE, writeStamp } = require('./build-stamp');

const ROOT = join(__dirname, '..');

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

const startedAt = Date.now();
const tsc = spawnSync(
  process.execPath,
  [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
  {
    cwd: ROOT,
    stdio: 'inherit',
  },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

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
writeStamp(ROOT, startedAt);
