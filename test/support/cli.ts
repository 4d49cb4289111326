import { execFile } from 'node:child_process';
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
