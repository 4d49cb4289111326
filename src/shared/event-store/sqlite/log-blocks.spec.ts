import type { RecordedEvent } from '../event-store.port';
import { BLOCK_SIZE, type BlockPage, LogBlocks } from './log-blocks';

const event = (position: number): RecordedEvent => ({
  streamId: position % 3 === 0 ? `wallet-${position}` : `message-${position}`,
  revision: 0n,
  position: BigInt(position),
  type: position % 3 === 0 ? 'CreditsReserved' : 'MessageQueued',
  data: {},
  metadata: {},
  recordedAt: new Date(0),
});

/** A log of `head` events whose reads are counted. */
function log(head: number, options: { stallMs?: number } = {}) {
  const reads: [bigint, bigint][] = [];
  const blocks = new LogBlocks((from, to) => {
    reads.push([from, to]);
    const events: RecordedEvent[] = [];
    for (let p = Number(from) + 1; p <= Math.min(Number(to), head); p++) events.push(event(p));
    return events;
  }, options);
  return { blocks, reads };
}

const messages = { streamPrefixes: ['message-'] };
const B = BigInt(BLOCK_SIZE);
/** A page the blocks answered (neither null nor a wait). */
const answered = (page: unknown) => page as BlockPage;

describe('LogBlocks', () => {
  it('leaves a block asked for once to its reader, and reads it for everyone at the second ask', () => {
    const { blocks, reads } = log(5 * BLOCK_SIZE);
    expect(blocks.page({}, 10n, 100, messages, 5n * BigInt(BLOCK_SIZE))).toBeNull();
    expect(reads).toHaveLength(0);
    const page = answered(blocks.page({}, 20n, 100, messages, 5n * BigInt(BLOCK_SIZE)));
    expect(reads).toEqual([[0n, BigInt(BLOCK_SIZE)]]);
    expect(page?.events.map((e) => Number(e.position))).toEqual(
      Array.from({ length: 150 }, (_, i) => 21 + i).filter((p) => p % 3 !== 0).slice(0, 100),
    );
    expect(page?.scannedTo).toBe(page?.events.at(-1)?.position);
    // A third reader, with another filter, takes the same block without reading it again.
    const wallets = answered(blocks.page({}, 0n, 5, { streamPrefixes: ['wallet-'] }, 5n * BigInt(BLOCK_SIZE)));
    expect(wallets?.events.map((e) => Number(e.position))).toEqual([3, 6, 9, 12, 15]);
    expect(reads).toHaveLength(1);
  });

  it('walks on through the blocks below the known position, and never into one above it', () => {
    const { blocks } = log(3 * BLOCK_SIZE + 10);
    blocks.page({}, 0n, 10, messages, 3n * BigInt(BLOCK_SIZE) + 10n); // the first ask
    const page = answered(blocks.page({}, 0n, 100_000, { eventTypes: ['CreditsReserved'] }, 3n * BigInt(BLOCK_SIZE) + 10n));
    // Three whole blocks: the fourth holds positions beyond what is known, so it is not a block yet.
    expect(page?.scannedTo).toBe(3n * BigInt(BLOCK_SIZE));
    expect(page?.events).toHaveLength(BLOCK_SIZE);
    expect(blocks.page({}, 3n * BigInt(BLOCK_SIZE), 10, undefined, 3n * BigInt(BLOCK_SIZE) + 10n)).toBeNull();
  });

  it('answers nothing for a position inside a block that is not whole yet', () => {
    const { blocks, reads } = log(BLOCK_SIZE - 1);
    expect(blocks.page({}, 0n, 10, undefined, BigInt(BLOCK_SIZE - 1))).toBeNull();
    expect(blocks.page({}, 0n, 10, undefined, BigInt(BLOCK_SIZE - 1))).toBeNull();
    expect(reads).toHaveLength(0);
  });

  it('holds a reader far ahead of the slowest until the slowest moves on, so no held block is read twice', async () => {
    const { blocks, reads } = log(40 * BLOCK_SIZE);
    const known = 40n * B;
    const slow = {};
    const fast = {};
    const other = {};
    blocks.page(slow, 0n, 10, messages, known); // asks block 0 first: reads it by itself
    // The fast reader walks through fifteen blocks (each read once, at its ask)...
    for (let block = 0n; block < 15n; block++) {
      blocks.page(other, block * B, 10, messages, known); // someone asked for it first
      expect('events' in (blocks.page(fast, block * B, 10_000, messages, known) as object)).toBe(true);
    }
    // ...and the sixteenth would drop block 0, which the slowest reader has yet to take.
    const held = blocks.page(fast, 15n * B, 10_000, messages, known);
    expect(held).toHaveProperty('wait');
    let woken = false;
    void (held as { wait: Promise<void> }).wait.then(() => (woken = true));
    await Promise.resolve();
    expect(woken).toBe(false);
    const readsBefore = reads.length;
    // The slowest takes block 0 from memory, then moves to block 1: the fast one goes on.
    expect(answered(blocks.page(slow, 0n, 10_000, messages, known)).scannedTo).toBeGreaterThan(0n);
    expect(reads).toHaveLength(readsBefore);
    blocks.page(slow, B, 10, messages, known);
    await Promise.resolve();
    expect(woken).toBe(true);
    // No longer held back, and not alone behind: block 15 is read at its first ask, for everyone.
    expect(answered(blocks.page(fast, 15n * B, 10_000, messages, known)).scannedTo).toBe(16n * B);
    expect(reads.at(-1)).toEqual([15n * B, 16n * B]);
  });

  it('stops holding readers back for one that stands still too long, or leaves', async () => {
    const { blocks } = log(40 * BLOCK_SIZE, { stallMs: 300 });
    const known = 40n * B;
    const slow = {};
    const fast = {};
    const other = {};
    blocks.page(slow, 0n, 10, messages, known);
    for (let block = 0n; block < 15n; block++) {
      blocks.page(other, block * B, 10, messages, known);
      blocks.page(fast, block * B, 10_000, messages, known);
    }
    const held = blocks.page(fast, 15n * B, 10_000, messages, known) as { wait: Promise<void> };
    await held.wait; // the stall's timer
    await new Promise((resolve) => setTimeout(resolve, 10));
    // Standing still: the fast reader reads the log by itself instead of waiting again.
    expect(blocks.page(fast, 15n * B, 10_000, messages, known)).toBeNull();
    // Gone: nobody is held back for it.
    blocks.leave(slow);
    const alone = blocks.page(fast, 15n * B, 10_000, messages, known);
    expect(alone === null || 'events' in alone).toBe(true);
  });
});
