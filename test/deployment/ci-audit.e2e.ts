import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readText, ROOT } from './deployment-files';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { summarize } = require('../../.ci/audit.js') as {
  summarize(
    stdout: string,
    level?: string,
  ): { outcome: string; reason?: string; lines?: string[]; fail: boolean };
};

/**
 * Issue 28: CI runs `npm audit --omit=dev` (.ci/audit.js from .ci/run), reports every advisory,
 * fails on those at NPM_AUDIT_LEVEL or above when the operator sets it, and goes on, saying so,
 * when the registry cannot answer.
 */
const report = (severities: Record<string, number>, vulnerabilities: object = {}) =>
  JSON.stringify({
    auditReportVersion: 2,
    vulnerabilities,
    metadata: {
      vulnerabilities: { info: 0, low: 0, moderate: 0, high: 0, critical: 0, ...severities },
      dependencies: { prod: 300, total: 300 },
    },
  });

const advisory = (name: string, severity: string) => ({
  [name]: {
    name,
    severity,
    range: '<1.2.3',
    via: [{ title: `${name} is vulnerable`, url: `https://github.com/advisories/GHSA-${name}`, severity }],
    fixAvailable: true,
  },
});

describe('CI: npm audit of the production dependencies', () => {
  it('.ci/run runs it after npm ci, and its failure fails CI after the jest line', () => {
    const run = readText('.ci/run');
    expect(run.indexOf('node .ci/audit.js')).toBeGreaterThan(run.indexOf('npm ci'));
    expect(run).toMatch(/audit_status=\$\?/);
    expect(run).toMatch(/exit "\$audit_status"/);
  });

  it.each([
    [
      'a 405 from a registry without the advisory endpoint',
      JSON.stringify({
        message: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk',
        statusCode: 405,
        error: { summary: '', detail: '' },
      }),
    ],
    [
      'no network',
      JSON.stringify({
        message: 'request to https://registry.npmjs.org/… failed, reason: getaddrinfo ENOTFOUND',
      }),
    ],
    ['an empty answer', ''],
    ['garbage', '<html>proxy error</html>'],
  ])('says the registry did not answer and does not fail on %s', (_what, stdout) => {
    expect(summarize(stdout)).toMatchObject({
      outcome: 'unreachable',
      fail: false,
      reason: expect.any(String),
    });
  });

  it('reports a clean audit, and advisories below the level without failing', () => {
    expect(summarize(report({}))).toMatchObject({ outcome: 'report', lines: [], fail: false });
    const moderate = summarize(report({ moderate: 1 }, advisory('left-pad', 'moderate')));
    expect(moderate).toMatchObject({ outcome: 'report', fail: false });
    expect(moderate.lines).toEqual([
      'moderate left-pad <1.2.3: left-pad is vulnerable (https://github.com/advisories/GHSA-left-pad) [fix available]',
    ]);
  });

  it('fails on high or critical, or on what NPM_AUDIT_LEVEL names', () => {
    expect(summarize(report({ high: 1 }, advisory('a', 'high'))).fail).toBe(true);
    expect(summarize(report({ critical: 1 }, advisory('b', 'critical'))).fail).toBe(true);
    expect(summarize(report({ moderate: 1 }, advisory('c', 'moderate')), 'moderate').fail).toBe(true);
  });

  it('runs as a script: exit 0 when npm cannot reach the registry; a high advisory reported, and failing only under NPM_AUDIT_LEVEL', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ci-audit-'));
    try {
      const fakeNpm = (stdout: string) => {
        writeFileSync(join(dir, 'answer.json'), stdout);
        const npm = join(dir, 'npm');
        writeFileSync(npm, `#!/bin/sh\ncat "${join(dir, 'answer.json')}"\nexit 1\n`);
        chmodSync(npm, 0o755);
      };
      const audit = (level?: string) =>
        spawnSync(process.execPath, [join(ROOT, '.ci/audit.js')], {
          encoding: 'utf8',
          env: {
            ...process.env,
            PATH: `${dir}:${process.env.PATH}`,
            NPM_AUDIT_LEVEL: level ?? '',
          },
        });
      fakeNpm(JSON.stringify({ message: 'request failed, reason: connect ECONNREFUSED' }));
      const offline = audit();
      expect({ status: offline.status, out: offline.stdout }).toEqual({
        status: 0,
        out: expect.stringContaining('did not answer'),
      });
      fakeNpm(report({ high: 1 }, advisory('smpp-ish', 'high')));
      const reported = audit();
      expect(reported.status).toBe(0);
      expect(reported.stdout).toContain('0 moderate, 1 high, 0 critical');
      expect(reported.stdout).toContain('high smpp-ish <1.2.3');
      expect(reported.stdout).toContain('set NPM_AUDIT_LEVEL=high to fail CI on them');
      const failed = audit('high');
      expect(failed.status).toBe(1);
      expect(failed.stdout).toContain('advisories at high or above: CI fails');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
