import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';

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

/** Rejects, naming `what`, when `promise` has not settled within `ms`. */
export async function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer from chromium within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A page of its own (own cookies), with a test's default timeouts, and its bounded close. */
export interface OwnPage {
  readonly page: Page;
  close(): Promise<void>;
}

/**
 * Opens a page in a new context. Playwright gives `newPage` and `close` no timeout of their own,
 * and on this busy 2-core machine chromium has, rarely, never answered one (a whole walk then
 * waited for jest's 240 s with no word of where): each is bounded here, and a page that does not
 * open in 30 s is asked for once more in a fresh context before the test fails saying so.
 */
export async function openOwnPage(
  browser: Browser,
  options: BrowserContextOptions,
  timeoutMs: number,
): Promise<OwnPage> {
  for (let attempt = 1; ; attempt++) {
    const context = await bounded(browser.newContext(options), 30_000, 'browser.newContext');
    context.setDefaultTimeout(timeoutMs);
    context.setDefaultNavigationTimeout(timeoutMs * 2);
    try {
      const page = await bounded(context.newPage(), 30_000, 'context.newPage');
      return {
        page,
        close: () => bounded(context.close(), 15_000, 'context.close').catch(() => undefined),
      };
    } catch (error) {
      void bounded(context.close(), 15_000, 'context.close').catch(() => undefined);
      if (attempt === 2) throw error;
    }
  }
}
