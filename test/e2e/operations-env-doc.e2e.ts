import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');

const NAME = '[A-Z][A-Z0-9_]*';
/** The ways src/ reads the environment; each captures the variable's name. */
const READS = [
  new RegExp(`\\bprocess\\.env\\.(${NAME})`, 'g'), // process.env.PORT
  new RegExp(`\\benv\\.(${NAME})`, 'g'), // env.PORT (an Env passed in)
  new RegExp(`\\benv\\[\\s*['"\`](${NAME})['"\`]\\s*\\]`, 'g'), // env['PORT'], process.env['PORT']
  new RegExp(`\\(\\s*(?:process\\.)?env\\s*,\\s*['"\`](${NAME})['"\`]`, 'g'), // envInt(env, 'PORT', …)
];
/** A family of names matched by a regular expression, e.g. /^CARRIER_([A-Z0-9_]+)_URL$/: CARRIER_<NAME>_URL. */
const FAMILY = /\/\^([A-Z][A-Z0-9_]*)\(\[[^\]]+\][+*]\)([A-Z0-9_]*)\$\//g;
/** `const { PORT, HOST } = process.env` */
const DESTRUCTURED = /\{([^}]*)\}\s*=\s*process\.env\b/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.(spec|test-support)\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** Every variable name src/ reads, with the files that read it. */
function namesReadInSource(): Map<string, string[]> {
  const names = new Map<string, string[]>();
  const add = (name: string, file: string) => names.set(name, [...(names.get(name) ?? []), file]);
  for (const path of sourceFiles(join(ROOT, 'src'))) {
    const file = relative(ROOT, path);
    const code = readFileSync(path, 'utf8');
    for (const pattern of READS) for (const [, name] of code.matchAll(pattern)) add(name, file);
    for (const [, prefix, suffix] of code.matchAll(FAMILY)) add(`${prefix}<NAME>${suffix}`, file);
    for (const [, list] of code.matchAll(DESTRUCTURED))
      for (const name of list.split(',').map((n) => n.split(':')[0].trim()))
        if (new RegExp(`^${NAME}$`).test(name)) add(name, file);
  }
  return names;
}

/** The names in the first column of the tables under docs/operations.md's "## Configuration". */
function namesDocumented(): string[] {
  const doc = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');
  const section = /^## Configuration\n([\s\S]*?)(?=^## )/m.exec(doc)?.[1] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*(variable|-)/.test(line))
    .flatMap((line) => [...line.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]*(?:<NAME>[A-Z0-9_]*)?)`/g)])
    .map(([, name]) => name);
}

describe('docs/operations.md documents every environment variable src/ reads', () => {
  const read = namesReadInSource();
  const documented = namesDocumented();

  it('finds the variables at all (the scan and the table parse work)', () => {
    expect(
      read.has('PORT') && read.has('CARRIER_<NAME>_URL') && read.has('ORPHAN_RESERVATION_GRACE_MS'),
    ).toBe(true);
    expect(documented).toEqual(expect.arrayContaining(['PORT', 'CARRIER_<NAME>_URL']));
  });

  it('has a row for every variable read in src/', () => {
    const undocumented = [...read]
      .filter(([name]) => !documented.includes(name))
      .map(([name, files]) => `${name} (read in ${[...new Set(files)].join(', ')})`);
    expect({ 'read in src/ but missing from the docs/operations.md tables': undocumented }).toEqual({
      'read in src/ but missing from the docs/operations.md tables': [],
    });
  });

  it('has no row for a variable src/ does not read', () => {
    const stale = documented.filter((name) => !read.has(name));
    expect({ 'documented in docs/operations.md but read nowhere in src/': stale }).toEqual({
      'documented in docs/operations.md but read nowhere in src/': [],
    });
  });
});
