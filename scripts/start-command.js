// @ts-check
'use strict';
/**
 * How `npm start` runs the server (package.json's start script, after its build check): the
 * node flags before the entry and the environment it sets (`env NAME=value`). The benchmark and
 * the tests' built server run it the same way from here, so the script stays the one place to
 * change them (the Dockerfile repeats them for an image without npm).
 */
const { scripts } = require('../package.json');

const words = scripts.start.split('&&').pop().trim().split(/\s+/);

/** `--max-old-space-size=256` and the like, in order. */
const nodeFlags = words.filter((word) => word.startsWith('--'));

/** `MALLOC_MMAP_THRESHOLD_=131072` and the like, as an environment. */
const env = Object.fromEntries(
  words
    .filter((word) => /^[A-Z_][A-Z0-9_]*=/.test(word))
    .map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]),
);

module.exports = { nodeFlags, env };
