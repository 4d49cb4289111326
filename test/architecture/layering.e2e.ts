/*
 * The layering rules of .dependency-cruiser.js, checked over src on every test run, and shown
 * to bite on a fixture that breaks each of them on purpose (fixtures/bad, outside the build
 * and outside jest's testMatch).
 *
 * dependency-cruiser's API is ESM-only, which jest's CommonJS runtime cannot load, so the
 * cruise runs in a child node process (cruise.mjs) that prints its findings as JSON.
 */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = resolve(__dirname, '../..');
const config = join(root, '.dependency-cruiser.js');

interface Violation {
  readonly rule: string;
  readonly severity: string;
  readonly from: string;
  readonly to: string;
  readonly cycle?: readonly { name: string }[];
}
interface Cruised {
  readonly violations: readonly Violation[];
  readonly modules: readonly string[];
}

async function cruise(baseDir: string, paths: string[], tsConfig?: string): Promise<Cruised> {
  const { stdout } = await run(
    process.execPath,
    [join(__dirname, 'cruise.mjs'), JSON.stringify({ config, baseDir, paths, tsConfig })],
    { cwd: root, maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(stdout) as Cruised;
}

const describeViolation = (v: Violation) =>
  `${v.severity} ${v.rule}: ${v.from} → ${v.to}${v.cycle ? ` (cycle: ${v.cycle.map((c) => c.name).join(' → ')})` : ''}`;

describe('layering (dependency-cruiser)', () => {
  it('src keeps the layering rules', async () => {
    const result = await cruise(root, ['src'], join(root, 'tsconfig.json'));
    // It really looked at the code: every context's domain and the shared kernel were cruised.
    expect(result.modules.filter((m) => /^src\/[^/]+\/domain\//.test(m)).length).toBeGreaterThan(0);
    expect(result.modules).toContain('src/shared/event-store/event-store.port.ts');
    if (result.violations.length > 0) {
      console.error(`Layering violations:\n${result.violations.map(describeViolation).join('\n')}`);
    }
    expect(result.violations.map(describeViolation)).toEqual([]);
  }, 300_000);

  it('the rules bite: a fixture that breaks each of them is flagged', async () => {
    const result = await cruise(join(__dirname, 'fixtures/bad'), ['src']);
    const found = result.violations.map((v) => `${v.rule} ${v.from}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'domain-not-to-frameworks src/demo/domain/bad.ts',
        'domain-not-to-outer-layers src/demo/domain/bad.ts',
        'shared-not-to-contexts src/shared/leak.ts',
        'entry-points-through-the-buses src/demo/http/demo.http.controller.ts',
      ]),
    );
    // Only the direct call to the service is flagged, not the command class nor the type-only import.
    expect(
      result.violations.filter((v) => v.rule === 'entry-points-through-the-buses').map((v) => v.to),
    ).toEqual(['src/demo/application/demo.service.ts']);
    expect(result.violations.find((v) => v.rule === 'domain-not-to-frameworks')?.to).toMatch(
      /@nestjs\/common/,
    );
    expect(
      result.violations.some((v) => v.rule === 'no-circular-domain' && /cycle-[ab]\.ts$/.test(v.from)),
    ).toBe(true);
  }, 300_000);
});
