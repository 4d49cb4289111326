import type { RecordedEvent } from '../event-store.port';
import { BLOCK_SIZE, LogBlocks } from './log-blocks';

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
function log(head: number) {
  const reads: [bigint, bigint][] = [];
  const blocks = new LogBlocks((from, to) => {
    reads.push([from, to]);
    const events: RecordedEvent[] = [];
    for (let p = Number(from) + 1; p <= Math.min(Number(to), head); p++) events.push(event(p));
    return events;
  });
  return { blocks, reads };
}

const messages = { streamPrefixes: ['message-'] };

describe('LogBlocks', () => {
  it('leaves a block asked for once to its reader, and reads it for everyone at the second ask', () => {
    const { blocks, reads } = log(5 * BLOCK_SIZE);
    expect(blocks.page(10n, 100, messages, 5n * BigInt(BLOCK_SIZE))).toBeNull();
    expect(reads).toHaveLength(0);
    const page = blocks.page(20n, 100, messages, 5n * BigInt(BLOCK_SIZE));
    expect(reads).toEqual([[0n, BigInt(BLOCK_SIZE)]]);
    expect(page?.events.map((e) => Number(e.position))).toEqual(
      Array.from({ length: 150 }, (_, i) => 21 + i).filter((p) => p % 3 !== 0).slice(0, 100),
    );
    expect(page?.scannedTo).toBe(page?.events.at(-1)?.position);
    // A third reader, with another filter, takes the same block without reading it again.
    const wallets = blocks.page(0n, 5, { streamPrefixes: ['wallet-'] }, 5n * BigInt(BLOCK_SIZE));
    expect(wallets?.events.map((e) => Number(e.position))).toEqual([3, 6, 9, 12, 15]);
    expect(reads).toHaveLength(1);
  });

  it('walks on through the blocks below the known position, and never into one above it', () => {
    const { blocks } = log(3 * BLOCK_SIZE + 10);
    blocks.page(0n, 10, messages, 3n * BigInt(BLOCK_SIZE) + 10n); // the first ask
    const page = blocks.page(0n, 100_000, { eventTypes: ['CreditsReserved'] }, 3n * BigInt(BLOCK_SIZE) + 10n);
    // Three whole blocks: the fourth holds positions beyond what is known, so it is not a block yet.
    expect(page?.scannedTo).toBe(3n * BigInt(BLOCK_SIZE));
    expect(page?.events).toHaveLength(BLOCK_SIZE);
    expect(blocks.page(3n * BigInt(BLOCK_SIZE), 10, undefined, 3n * BigInt(BLOCK_SIZE) + 10n)).toBeNull();
  });

  it('answers nothing for a position inside a block that is not whole yet', () => {
    const { blocks, reads } = log(BLOCK_SIZE - 1);
    expect(blocks.page(0n, 10, undefined, BigInt(BLOCK_SIZE - 1))).toBeNull();
    expect(blocks.page(0n, 10, undefined, BigInt(BLOCK_SIZE - 1))).toBeNull();
    expect(reads).toHaveLength(0);
  });
});
