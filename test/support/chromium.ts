import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/** Debian's chromium, which the browser suites drive through playwright-core. */
export const CHROMIUM = '/usr/bin/chromium';

/** `describe` when chromium is installed, else `describe.skip` with the reason printed once. */
export function describeWithChromium(): jest.Describe {
  if (existsSync(CHROMIUM)) return describe;
  console.warn('Browser tests skipped: /usr/bin/chromium is not installed (apt-get install chromium)');
  return describe.skip;
}

/** Headless chromium with the flags every browser suite uses (no sandbox as root, no GPU, no network chatter). */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: 120_000,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-sync',
    ],
  });
}
