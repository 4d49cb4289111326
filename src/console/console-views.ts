import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where the templates and assets are, both when running from src (ts-node, ts-jest) and from
 * the compiled dist/ (tsc does not copy .eta or .css files, so dist/console falls back to the
 * sources next to it: <root>/src/console/…).
 */
function locate(folder: string): string {
  const candidates = [
    join(__dirname, folder),
    join(__dirname, '..', '..', 'src', 'console', folder),
    join(process.cwd(), 'src', 'console', folder),
  ];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`Console ${folder} not found; looked in ${candidates.join(', ')}`);
  return found;
}

export const consoleViewsDir = (): string => locate('views');
export const consoleAssetsDir = (): string => locate('assets');
