/** Helpers the contract suites share: waiting on conditions, never on the clock. */

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `condition` until it holds. The timeout is generous on purpose: the suites run on
 * slow, busy machines, and a condition that holds at all holds long before it.
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

/** A short random token: names streams, types, collections and projections per test. */
export const unique = () => Math.random().toString(36).slice(2, 10).replace(/^\d/, 'x');

/** A promise with its resolve handle, to hold a handler until the test lets it go. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
