// @ts-check
'use strict';
/**
 * `npm run screenshots`: regenerates docs/screenshots/, the README's images, by running the
 * browser suites (test/browser/, each through test/support/browser.ts's screenshotFolder) with
 * SCREENSHOTS_DIR pointing there. The test suite runs the same walks with temporary folders, so
 * `npm test` never rewrites them.
 * Fails when chromium is missing (the walk would skip) or when an image the README shows was
 * not taken.
 */
const { spawnSync } = require('node:child_process');
const { existsSync, readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const TARGET = join(ROOT, 'docs/screenshots');
const WALK = 'test/browser/';
const CHROMIUM = '/usr/bin/chromium';

if (!existsSync(CHROMIUM)) {
  process.stderr.write(`screenshots: ${CHROMIUM} is not installed (apt-get install chromium)\n`);
  process.exit(1);
}

const startedAt = Date.now();
const jest = spawnSync(
  process.execPath,
  [require.resolve('jest/bin/jest'), WALK, '--maxWorkers=1', '--testTimeout=240000'],
  { cwd: ROOT, stdio: 'inherit', env: { ...process.env, SCREENSHOTS_DIR: TARGET } },
);
if (jest.status !== 0) {
  process.stderr.write('screenshots: a browser walk failed; docs/screenshots/ may be partly rewritten\n');
  process.exit(jest.status ?? 1);
}

const shown = [...new Set(readFileSync(join(ROOT, 'README.md'), 'utf8').match(/docs\/screenshots\/[\w-]+\.png/g) ?? [])];
// Millisecond times can round down below the start on some file systems: a second's slack.
const stale = shown.filter((image) => !existsSync(join(ROOT, image)) || statSync(join(ROOT, image)).mtimeMs < startedAt - 1000);
if (stale.length > 0) {
  process.stderr.write(`screenshots: the README shows images the walk did not take: ${stale.join(', ')}\n`);
  process.exit(1);
}
process.stdout.write(`screenshots: ${shown.length} images in docs/screenshots/ regenerated (git diff --stat docs/screenshots)\n`);
