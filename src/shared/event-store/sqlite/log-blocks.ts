import { matchesFilter, type EventFilter, type RecordedEvent } from '../event-store.port';
import { RecentlyUsed } from '../../recently-used';

/** Positions a block holds: block k is the log from position k × BLOCK_SIZE + 1 to (k + 1) × BLOCK_SIZE. */
export const BLOCK_SIZE = 1024;
/** Blocks kept parsed (about 1 KB an event: some 16 MB at most). */
const BLOCKS_HELD = 16;
/** Blocks remembered as asked for once, to tell a second reader from the first. */
const ASKS_REMEMBERED = 1024;
/** Blocks one page may walk through, so a reader with a narrow filter does not parse the log at once. */
const BLOCKS_PER_PAGE = 8;

/**
 * How long the slowest reader may stand still before the others stop waiting for it and read the
 * log by themselves (it may be applying a long page, or waiting on something that waits on them).
 */
const STALL_MS = 250;

/** A page read from the blocks: the matching events, and how far it looked. */
export interface BlockPage {
  readonly events: RecordedEvent[];
  readonly scannedTo: bigint;
}

/** The reader is too far ahead of the slowest one: ask again once this settles. */
export interface BlockWait {
  readonly wait: Promise<void>;
}

/**
 * The log behind this store's recent appends, read once for every subscription that follows it.
 * When a campaign is written faster than the read models and process managers apply it, a dozen
 * subscriptions fall behind the recent appends together and each read (and parsed) the same
 * events with a query of its own: a fifth of the worker thread. Here the log is cut into blocks
 * of fixed positions; a block that lies wholly below the head never changes (positions are given
 * in commit order and never reused once committed), so it is read unfiltered once, parsed once,
 * and each subscription takes its events from it. A subscription alone behind reads only what it
 * wants at its first ask of a block (it parses no more than it did before blocks); the second ask
 * reads the block for everyone, and while several read behind, the first ask does.
 *
 * The readers behind keep together: one that would read a block more than the held blocks ahead
 * of the slowest reader's waits for it to move on (BlockWait). Left to their own speeds, the read
 * models behind a campaign of 100,000 messages spread over the whole of it, and each block was
 * read and parsed five or six times, once for each reader that came by after it was dropped.
 * Waiting costs the machine nothing: the readers share one thread, so what the fast ones would
 * have done early they do a moment later, with the block still held.
 */
export class LogBlocks {
  private readonly blocks = new Map<number, readonly RecordedEvent[]>();
  private readonly asked = new RecentlyUsed<number, true>(ASKS_REMEMBERED);
  /** The readers behind, and the position each asked from last. */
  private readonly readers = new Map<object, bigint>();
  /** Where the slowest reader asked from, its block, and since when (epoch ms) it stands there. */
  private slowest = { after: -1n, block: -1, since: 0 };
  private waiters: (() => void)[] = [];
  private readonly stallMs: number;

  constructor(
    private readonly read: (from: bigint, to: bigint) => RecordedEvent[],
    options: { stallMs?: number } = {},
  ) {
    this.stallMs = options.stallMs ?? STALL_MS;
  }

  /** The reader is no longer behind (or stopped): nobody waits for it. */
  leave(reader: object): void {
    if (this.readers.delete(reader)) this.moved();
  }

  /**
   * Up to `limit` events matching `filter` after `after`, from the blocks wholly at or below
   * `known` (a position known to be committed, with everything before it); null when the first
   * block is not one of them, is asked for the first time by a reader alone behind, or lies too
   * far ahead of a slowest reader that has stood still too long (the caller reads the log itself);
   * a wait when it lies too far ahead of the slowest reader otherwise.
   * A page shorter than `limit` stopped at a block's end, not at the log's head.
   */
  page(
    reader: object,
    after: bigint,
    limit: number,
    filter: EventFilter | undefined,
    known: bigint,
  ): BlockPage | BlockWait | null {
    if (this.readers.get(reader) !== after) {
      this.readers.set(reader, after);
      this.moved();
    }
    const events: RecordedEvent[] = [];
    let scanned = after;
    for (let walked = 0; walked < BLOCKS_PER_PAGE && events.length < limit; walked++) {
      const index = Number(scanned / BigInt(BLOCK_SIZE));
      const end = BigInt(index + 1) * BigInt(BLOCK_SIZE);
      if (end > known) break;
      if (this.tooFarAhead(index)) {
        if (walked > 0) break;
        return Date.now() - this.slowest.since < this.stallMs ? { wait: this.nextMove() } : null;
      }
      const block = this.block(index, walked === 0);
      if (!block) break;
      for (const event of block) {
        if (event.position <= scanned || !matchesFilter(filter, event.streamId, event.type)) continue;
        events.push(event);
        if (events.length === limit) return { events, scannedTo: event.position };
      }
      scanned = end;
    }
    return scanned === after ? null : { events, scannedTo: scanned };
  }

  /**
   * Keeps the block, dropping when full one that every reader has passed (the lowest), or else
   * the one furthest ahead: by recency, the blocks just ahead of the slowest reader, used by the
   * fast ones long ago, went first, and were read again when the slowest came to them.
   */
  private hold(index: number, block: readonly RecordedEvent[]): void {
    if (this.blocks.size >= BLOCKS_HELD) {
      let lowest = index;
      let highest = index;
      for (const held of this.blocks.keys()) {
        lowest = Math.min(lowest, held);
        highest = Math.max(highest, held);
      }
      const dropped = lowest < this.slowest.block ? lowest : highest;
      if (dropped === index) return; // the new block is the one furthest ahead: used once, not kept
      this.blocks.delete(dropped);
    }
    this.blocks.set(index, block);
  }

  /** Holding this block (it is not held) could drop one the slowest reader has yet to read. */
  private tooFarAhead(index: number): boolean {
    return index >= this.slowest.block + BLOCKS_HELD - 1 && !this.blocks.has(index);
  }

  /** A reader asked from elsewhere, or left: the slowest may have moved, and who waits looks again. */
  private moved(): void {
    let lowest: bigint | null = null;
    for (const after of this.readers.values()) if (lowest === null || after < lowest) lowest = after;
    const after = lowest ?? -1n;
    if (after === this.slowest.after) return;
    const block = lowest === null ? -1 : Number(lowest / BigInt(BLOCK_SIZE));
    const blockMoved = block !== this.slowest.block;
    this.slowest = { after, block, since: Date.now() };
    if (!blockMoved) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Settles when the slowest reader moves to another block, or has stood still too long. */
  private nextMove(): Promise<void> {
    return new Promise((resolve) => {
      // Not unref'd: a subscription waits on it, and a process with nothing else to do (a rebuild
      // by the CLI) must not end while it does.
      const timer = setTimeout(resolve, this.stallMs - (Date.now() - this.slowest.since));
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * A block, parsed: held, or read now when other readers are behind, or another reader asked for
   * it before (or the page has already taken a block, so walking on costs no more than the
   * reader's own query would).
   */
  private block(index: number, first: boolean): readonly RecordedEvent[] | null {
    const held = this.blocks.get(index);
    if (held) return held;
    // With others behind, a reader that went by itself would scan the log with its filter past the
    // held blocks, far past them when it wants little (in a rebuild, 78% of the time went there).
    if (first && this.readers.size <= 1 && !this.asked.has(index)) {
      this.asked.set(index, true);
      return null;
    }
    this.asked.delete(index);
    const from = BigInt(index) * BigInt(BLOCK_SIZE);
    const block = this.read(from, from + BigInt(BLOCK_SIZE));
    this.hold(index, block);
    return block;
  }
}
