import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * docs/adapters.md shows example code verbatim between `<!-- include: path -->` and
 * `<!-- /include -->`: this keeps every such block identical to the file that tests run.
 */
describe('docs/adapters.md', () => {
  const doc = readFileSync(join(ROOT, 'docs/adapters.md'), 'utf8');
  const includes = [
    ...doc.matchAll(/<!-- include: (\S+) -->\n```ts\n([\s\S]*?)```\n<!-- \/include -->/g),
  ].map(([, path, code]) => ({ path, code }));

  it('includes the recording carrier and the test that runs it', () => {
    expect(includes.map((i) => i.path)).toEqual(
      expect.arrayContaining(['test/support/recording-carrier.ts', 'test/e2e/carrier-override.e2e.ts']),
    );
    // Every include marker is a well-formed block.
    expect(includes).toHaveLength(doc.match(/<!-- include: /g)?.length ?? 0);
  });

  it('shows each included file exactly as it is in the repository', () => {
    for (const { path, code } of includes) {
      expect({ path, code }).toEqual({ path, code: readFileSync(join(ROOT, path), 'utf8') });
    }
  });
});
