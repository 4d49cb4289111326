import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';

/**
 * What every browser suite shares: Debian's chromium driven by playwright-core, skipped (saying
 * why) where it is not installed, and the screenshots' folder: a temporary one in a test run, so
 * `npm test` never rewrites a tracked file, or docs/screenshots/ when `npm run screenshots`
 * (scripts/screenshots.js) sets SCREENSHOTS_DIR to regenerate the README's images.
 */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** `describe`, or `describe.skip` with the reason printed once, when chromium is missing. */
export function describeBrowser(name: string, body: () => void): void {
  if (hasChromium) return describe(name, body);
  console.warn(`Browser tests skipped (${name}): ${CHROMIUM} is not installed (apt-get install chromium)`);
  describe.skip(name, body);
}

/** Headless chromium with the flags this machine's closed network needs. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: 120_000,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Set by `npm run screenshots` only. */
export const SCREENSHOTS_DIR = process.env.SCREENSHOTS_DIR ? resolve(process.env.SCREENSHOTS_DIR) : null;

/** Where a suite's screenshots go, and how to clean up after it (a temporary folder is removed). */
export function screenshotFolder(suite: string): { readonly dir: string; done(): void } {
  const dir = SCREENSHOTS_DIR ?? mkdtempSync(join(tmpdir(), `${suite}-screenshots-`));
  mkdirSync(dir, { recursive: true });
  return {
    dir,
    done: () => {
      if (!SCREENSHOTS_DIR) rmSync(dir, { recursive: true, force: true });
    },
  };
}
