// @ts-check
'use strict';
/**
 * Whether dist/ is the build of the sources beside it. `npm run build` writes a stamp whose
 * modification time is the moment the build *started* (a file saved while tsc ran is then
 * newer than the stamp, and the next `npm run cli` builds again); the build is stale when any
 * input is newer than that, or when the stamp or the CLI bundle is missing.
 */
const { existsSync, readdirSync, statSync, utimesSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const STAMP = 'dist/.build-stamp';
const CLI_BUNDLE = 'dist/cli/main.bundle.js';

/**
 * What the build reads: the sources, the build scripts, the compiler settings, and the
 * installed dependencies (the CLI bundle contains their code; npm rewrites
 * node_modules/.package-lock.json on every install).
 */
const INPUT_DIRS = ['src', 'scripts'];
const INPUT_FILES = [
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
  'package-lock.json',
  'node_modules/.package-lock.json',
];

/** @returns {{ file: string; mtimeMs: number } | null} the most recently modified input */
function newestInput(root) {
  /** @type {{ file: string; mtimeMs: number } | null} */
  let newest = null;
  const consider = (path, mtimeMs) => {
    if (!newest || mtimeMs > newest.mtimeMs) newest = { file: relative(root, path), mtimeMs };
  };
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else consider(path, statSync(path).mtimeMs);
    }
  };
  for (const dir of INPUT_DIRS) if (existsSync(join(root, dir))) walk(join(root, dir));
  for (const file of INPUT_FILES) {
    const path = join(root, file);
    if (existsSync(path)) consider(path, statSync(path).mtimeMs);
  }
  return newest;
}

/** @returns {string | null} why dist/ must be built again, or null when it is current */
function staleReason(root) {
  const stamp = join(root, STAMP);
  if (!existsSync(stamp)) return 'no build yet';
  if (!existsSync(join(root, CLI_BUNDLE))) return `${CLI_BUNDLE} is missing`;
  const builtAt = statSync(stamp).mtimeMs;
  const newest = newestInput(root);
  return newest && newest.mtimeMs > builtAt ? `${newest.file} changed since the last build` : null;
}

/** Records a build that started at `startedAt` (ms since the epoch) and succeeded. */
function writeStamp(root, startedAt) {
  const stamp = join(root, STAMP);
  writeFileSync(stamp, `${new Date(startedAt).toISOString()}\n`);
  utimesSync(stamp, startedAt / 1000, startedAt / 1000);
}

module.exports = { STAMP, CLI_BUNDLE, staleReason, writeStamp };
