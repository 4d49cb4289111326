import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * What a test must leave as it found it: `git status --porcelain` (every tracked file changed,
 * and every untracked one added, ignored folders aside) and the content of every file under
 * docs/, hashed (a file already modified before the run would not change its status line if a
 * test wrote it again). Without git (an unpacked archive) only the docs/ part is compared.
 */
export function trackedTreeState(root = ROOT): string {
  let status: string;
  try {
    status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
      cwd: root,
      // Read only: no index refresh that would take .git/index.lock beside someone's git command.
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    status = '(not a git checkout)\n';
  }
  const docs = filesUnder(join(root, 'docs'))
    .map((file) => `${relative(root, file)} ${createHash('sha1').update(readFileSync(file)).digest('hex')}`)
    .join('\n');
  return `git status --porcelain:\n${status}\ndocs/:\n${docs}\n`;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}
