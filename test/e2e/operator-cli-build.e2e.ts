import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCliProcess } from '../support/cli';
import { runProcess } from '../support/run-process';

jest.setTimeout(600_000); // two real builds (tsc and the bundle) on a busy machine

const ROOT = join(__dirname, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { staleReason, writeStamp, STAMP, CLI_BUNDLE } = require('../../scripts/build-stamp') as {
  staleReason(root: string): string | null;
  writeStamp(root: string, startedAt: number): void;
  STAMP: string;
  CLI_BUNDLE: string;
};

const touch = (path: string, at: number) => utimesSync(path, at / 1000, at / 1000);

function file(root: string, path: string, at: number): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), '');
  touch(join(root, path), at);
}

describe('the build check of `npm run cli` (scripts/build-stamp.js)', () => {
  const root = mkdtempSync(join(tmpdir(), 'sms-wallet-stamp-'));
  const hourAgo = Date.now() - 3_600_000;
  beforeAll(() => {
    for (const path of ['src/main.ts', 'src/console/views/page.eta', 'scripts/build.js', 'tsconfig.json'])
      file(root, path, hourAgo);
    file(root, 'package.json', hourAgo);
    file(root, 'package-lock.json', hourAgo);
    file(root, 'node_modules/.package-lock.json', hourAgo);
    mkdirSync(join(root, 'dist')); // tsc makes it before the stamp is written
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('builds when there was no build, or its CLI bundle is gone', () => {
    expect(staleReason(root)).toBe('no build yet');
    writeStamp(root, hourAgo + 1000);
    expect(staleReason(root)).toBe(`${CLI_BUNDLE} is missing`);
    file(root, CLI_BUNDLE, hourAgo + 2000);
    expect(staleReason(root)).toBeNull();
  });

  it('builds again when a source, a build setting or the installed dependencies are newer than the build', () => {
    writeStamp(root, hourAgo + 1000);
    for (const path of ['src/console/views/page.eta', 'tsconfig.json', 'node_modules/.package-lock.json']) {
      touch(join(root, path), hourAgo + 5000);
      expect(staleReason(root)).toBe(`${path} changed since the last build`);
      touch(join(root, path), hourAgo);
    }
    expect(staleReason(root)).toBeNull();
  });

  it('stamps the time the build started, so a file saved during the build counts as newer', () => {
    writeStamp(root, hourAgo + 1000);
    touch(join(root, 'src/main.ts'), hourAgo + 1500); // saved while tsc ran, before the stamp was written
    expect(staleReason(root)).toBe('src/main.ts changed since the last build');
    expect(STAMP).toBe('dist/.build-stamp');
  });
});

const run = (cwd: string, command: string, args: string[], dataDir: string) =>
  runProcess(command, args, { cwd, env: { DATA_DIR: dataDir, LOG_LEVEL: 'error' } });

/**
 * The real thing, in a copy of the project (so this suite never rebuilds the dist/ other work
 * uses): the first `npm run cli` builds, the next one does not, an edited source builds again,
 * and the bundled CLI answers exactly what the CLI run from source answers.
 */
describe('`npm run cli` in a fresh copy of the project', () => {
  const copy = mkdtempSync(join(tmpdir(), 'sms-wallet-copy-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'sms-wallet-copy-data-'));
  beforeAll(() => {
    for (const path of [
      'src',
      'scripts',
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'tsconfig.build.json',
    ])
      cpSync(join(ROOT, path), join(copy, path), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  });
  afterAll(() => {
    rmSync(copy, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('builds once, then runs the built CLI until a source changes', async () => {
    const first = await run(copy, process.execPath, ['scripts/cli.js', 'routes:list'], dataDir);
    expect(first.stderr).toContain('cli: building dist/ first (no build yet)');
    expect(first.code).toBe(0);
    const fromSource = await runCliProcess(dataDir, ['routes:list']);
    expect(JSON.parse(first.stdout)).toEqual(fromSource.output);
    expect(first.stdout.trim().split('\n')).toHaveLength(1); // the build's output went to stderr

    const second = await run(copy, 'npm', ['run', '--silent', 'cli', '--', 'routes:list'], dataDir);
    expect(second.stderr).not.toContain('building');
    expect({ code: second.code, output: JSON.parse(second.stdout) }).toEqual({
      code: 0,
      output: fromSource.output,
    });

    touch(join(copy, 'src/cli/cli-args.ts'), Date.now());
    const third = await run(copy, process.execPath, ['scripts/cli.js', 'routes:list'], dataDir);
    expect(third.stderr).toContain(
      'cli: building dist/ first (src/cli/cli-args.ts changed since the last build)',
    );
    expect(JSON.parse(third.stdout)).toEqual(fromSource.output);
  });

  it('answers a JSON error line and exit 1 when the build fails', async () => {
    writeFileSync(join(copy, 'src/cli/cli-args.ts'), 'export const broken: number = "not a number";\n');
    const failed = await run(copy, process.execPath, ['scripts/cli.js', 'routes:list'], dataDir);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toEqual({ error: 'the build failed; see the compiler output above' });
    expect(failed.stderr).toContain('cli-args.ts');
  });
});
