// @ts-check
'use strict';
/**
 * `npm run cli -- <command> …`: runs the built, bundled CLI (dist/cli/main.bundle.js) in this
 * process, building first only when dist/ is missing or older than its sources (a check of a
 * few hundred file times: milliseconds). Build output goes to stderr: stdout stays the
 * command's one JSON line, also when the build fails.
 *
 * The bundle is compiled with V8's code cache (dist/cli/main.bundle.cache), written after the
 * first run that had none, so it also holds the functions that run compiled lazily: start-up
 * then skips most of V8's parsing and compiling (about 200 ms of a 600 ms run here).
 */
const { existsSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');
const { CLI_BUNDLE } = require('./build-stamp');
const { buildIfStale } = require('./build-if-stale');

const ROOT = join(__dirname, '..');
const BUNDLE = join(ROOT, CLI_BUNDLE);
const CODE_CACHE = BUNDLE.replace(/\.js$/, '.cache');

/** A code cache older than the bundle belongs to an earlier build (V8 checks only the length). */
function readCodeCache() {
  if (!existsSync(CODE_CACHE) || statSync(CODE_CACHE).mtimeMs < statSync(BUNDLE).mtimeMs) return undefined;
  return readFileSync(CODE_CACHE);
}

/** Best effort, atomic (another CLI may read it meanwhile); a read-only dist/ just runs uncached. */
function writeCodeCache(script) {
  try {
    const temporary = `${CODE_CACHE}.${process.pid}`;
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, CODE_CACHE);
  } catch {
    /* no cache: the next run compiles again */
  }
}

/** Loads the bundle as Node's require() would, but compiled through vm.Script with the code cache. */
function loadBundle() {
  const cachedData = readCodeCache();
  const script = new vm.Script(Module.wrap(readFileSync(BUNDLE, 'utf8')), {
    filename: BUNDLE,
    cachedData,
    // The bundle keeps Nest's dynamic import() of ES modules: resolve it as the main context would.
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const bundle = new Module(BUNDLE, module);
  bundle.filename = BUNDLE;
  // @ts-expect-error Module._nodeModulePaths is how Node itself sets a module's search paths.
  bundle.paths = Module._nodeModulePaths(dirname(BUNDLE));
  const wrapper = script.runInThisContext();
  wrapper.call(bundle.exports, bundle.exports, Module.createRequire(BUNDLE), bundle, BUNDLE, dirname(BUNDLE));
  bundle.loaded = true;
  const needsCache = cachedData === undefined || script.cachedDataRejected === true;
  return { cli: bundle.exports, saveCache: () => needsCache && writeCodeCache(script) };
}

if (buildIfStale('cli') !== 0) {
  process.stdout.write(`${JSON.stringify({ error: 'the build failed; see the compiler output above' })}\n`);
  process.exit(1);
}
const { cli, saveCache } = loadBundle();
void cli.runCli(process.argv.slice(2)).then((code) => {
  saveCache();
  process.exit(code);
});
