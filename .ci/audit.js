// @ts-check
'use strict';
/**
 * `npm audit --omit=dev` for .ci/run: the advisories of what production installs, printed one
 * per package. It reports; it fails CI only when the operator asks for it with NPM_AUDIT_LEVEL (e.g.
 * high): an advisory published after a commit must not stop that commit from landing unasked. When the registry
 * does not answer the audit (offline, a mirror or proxy without the advisory endpoint: 404, 405,
 * 5xx), that is said and CI goes on: the audit is a report of the world outside, and a build must
 * not depend on reaching it. docs/security.md says what it found.
 */
const { spawnSync } = require('node:child_process');

const LEVELS = ['info', 'low', 'moderate', 'high', 'critical'];

/**
 * What an `npm audit --json` run says: `unreachable` (no report: the reason), or `report` with
 * the counts per severity and one line per vulnerable package; `fail` when any is at `level` or
 * above.
 * @param {string} stdout
 * @param {string} level
 * @returns {{ outcome: 'unreachable', reason: string, fail: false } | { outcome: 'report', counts: Record<string, number>, lines: string[], fail: boolean }}
 */
function summarize(stdout, level = 'high') {
  let parsed;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    return {
      outcome: 'unreachable',
      reason: stdout.trim() === '' ? 'no answer' : 'not a report',
      fail: false,
    };
  }
  const counts = parsed && parsed.metadata && parsed.metadata.vulnerabilities;
  if (!counts || typeof counts !== 'object' || !parsed.vulnerabilities) {
    const reason =
      (parsed && (parsed.message || (parsed.error && (parsed.error.summary || parsed.error.code)))) ||
      'no report';
    return { outcome: 'unreachable', reason: String(reason).split('\n')[0], fail: false };
  }
  const threshold = Math.max(0, LEVELS.indexOf(level));
  const lines = Object.values(parsed.vulnerabilities).map((v) => {
    const titles = (Array.isArray(v.via) ? v.via : [])
      .map((via) => (typeof via === 'object' && via ? `${via.title} (${via.url})` : `via ${via}`))
      .join('; ');
    const fix = v.fixAvailable ? 'fix available' : 'no fix yet';
    return `${v.severity} ${v.name} ${v.range}: ${titles} [${fix}]`;
  });
  const fail = LEVELS.slice(threshold).some((severity) => Number(counts[severity] ?? 0) > 0);
  return { outcome: 'report', counts, lines, fail };
}

function main() {
  const level = process.env.NPM_AUDIT_LEVEL;
  const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], {
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  const result = summarize(run.stdout ?? '', level || 'high');
  if (result.outcome === 'unreachable') {
    console.log(`npm audit: the registry did not answer the audit (${result.reason}); skipped, CI goes on`);
    return 0;
  }
  const { counts } = result;
  console.log(
    `npm audit (production dependencies): ${LEVELS.map((s) => `${counts[s] ?? 0} ${s}`).join(', ')}`,
  );
  for (const line of result.lines) console.log(`  ${line}`);
  if (!result.fail) return 0;
  if (!level) {
    console.log('npm audit: advisories at high or above (reported; set NPM_AUDIT_LEVEL=high to fail CI on them)');
    return 0;
  }
  console.log(`npm audit: advisories at ${level} or above: CI fails`);
  return 1;
}

module.exports = { summarize };

if (require.main === module) process.exit(main());
