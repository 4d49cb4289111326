// Runs dependency-cruiser's API (ESM-only since v13, so it cannot be require()d from jest's
// CommonJS runtime) and prints the violations as one JSON line for layering.e2e.ts.
// Usage: node test/architecture/cruise.mjs '{"config":"…","baseDir":"…","paths":["src"],"tsConfig":"…"}'
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const { config, baseDir, paths, tsConfig } = JSON.parse(process.argv[2]);
const options = await extractDepcruiseOptions(config);
if (!tsConfig) delete options.tsConfig;
process.chdir(baseDir);
const result = await cruise(
  paths,
  { ...options, baseDir, ...(tsConfig ? { tsConfig: { fileName: tsConfig } } : {}) },
  undefined,
  tsConfig ? { tsConfig: extractTSConfig(tsConfig) } : undefined,
);
const { summary, modules } = result.output;
process.stdout.write(
  `${JSON.stringify({
    violations: summary.violations.map((v) => ({
      rule: v.rule.name,
      severity: v.rule.severity,
      from: v.from,
      to: v.to,
      cycle: v.cycle,
    })),
    modules: modules.map((m) => m.source),
  })}\n`,
);
