import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { storeNamespaceEnv } from './engines';

const ROOT = join(__dirname, '..', '..');

/** Runs the operator CLI as its own process on a data directory, as an operator would. */
export function runCliProcess(
  dataDir: string,
  args: readonly string[],
  env: Record<string, string> = {},
  /** What the CLI reads on stdin (a password); stdin is closed either way. */
  input = '',
): Promise<{ code: number; output: Record<string, unknown>; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', join(ROOT, 'src/cli/main.ts'), ...args],
      {
        cwd: ROOT,
        env: { ...process.env, ...storeNamespaceEnv(dataDir), ...env, DATA_DIR: dataDir, LOG_LEVEL: 'error' },
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        const line = stdout.trim().split('\n').pop() ?? '';
        try {
          resolve({ code: error ? Number(error.code ?? 1) : 0, output: JSON.parse(line), stderr });
        } catch {
          reject(new Error(`CLI printed no JSON line: ${stdout}\n${stderr}`));
        }
      },
    );
    child.stdin?.end(input);
  });
}

/**
 * Runs the CLI with its stdout a pipe (a socket pair, as `spawn` makes them) that is read only
 * once the process has exited, or `holdMs` after its first output arrived (a CLI that waits for
 * its reader must get one eventually): what `npm run cli -- … | slow-consumer` does. A CLI that
 * exits with its answer still queued for the pipe loses what the socket's buffer did not hold.
 * Resolves with everything it wrote.
 */
export function runCliProcessUnread(
  dataDir: string,
  args: readonly string[],
  holdMs = 3_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', join(ROOT, 'src/cli/main.ts'), ...args],
      {
        cwd: ROOT,
        env: { ...process.env, ...storeNamespaceEnv(dataDir), DATA_DIR: dataDir, LOG_LEVEL: 'error' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout.pause();
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    let hold: NodeJS.Timeout | undefined;
    // A paused stream still fills its own buffer: the first output shows there.
    const firstOutput = setInterval(() => {
      if (child.stdout.readableLength === 0 || hold) return;
      clearInterval(firstOutput);
      hold = setTimeout(startReading, holdMs);
    }, 20);
    function startReading(): void {
      clearInterval(firstOutput);
      clearTimeout(hold);
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stdout.resume();
    }
    child.once('exit', startReading);
    child.once('error', reject);
    child.once('close', (code) =>
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
  });
}
