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

/** A page read from the blocks: the matching events, and how far it looked. */
export interface BlockPage {
  readonly events: RecordedEvent[];
  readonly scannedTo: bigint;
}

/**
 * The log behind this store's recent appends, read once for every subscription that follows it.
 * When a campaign is written faster than the read models and process managers apply it, a dozen
 * subscriptions fall behind the recent appends together and each read (and parsed) the same
 * events with a query of its own: a fifth of the worker thread. Here the log is cut into blocks
 * of fixed positions; a block that lies wholly below the head never changes (positions are given
 * in commit order and never reused once committed), so it is read unfiltered once, parsed once,
 * and each subscription takes its events from it. The first subscription to ask for a block
 * reads only what it wants, as before (a subscription alone behind, or one with a narrow filter,
 * parses no more than it did); the second one's ask reads the block for everyone after it.
 */
export class LogBlocks {
  private readonly blocks = new RecentlyUsed<number, readonly RecordedEvent[]>(BLOCKS_HELD);
  private readonly asked = new RecentlyUsed<number, true>(ASKS_REMEMBERED);

  constructor(private readonly read: (from: bigint, to: bigint) => RecordedEvent[]) {}

  /**
   * Up to `limit` events matching `filter` after `after`, from the blocks wholly at or below
   * `known` (a position known to be committed, with everything before it); null when the first
   * block is not one of them, or is asked for the first time (the caller reads the log itself).
   * A page shorter than `limit` stopped at a block's end, not at the log's head.
   */
  page(after: bigint, limit: number, filter: EventFilter | undefined, known: bigint): BlockPage | null {
    const events: RecordedEvent[] = [];
    let scanned = after;
    for (let walked = 0; walked < BLOCKS_PER_PAGE && events.length < limit; walked++) {
      const index = Number(scanned / BigInt(BLOCK_SIZE));
      const end = BigInt(index + 1) * BigInt(BLOCK_SIZE);
      if (end > known) break;
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
   * A block, parsed: held, or read now when another reader asked for it before (or the page has
   * already taken a block, so walking on costs no more than the reader's own query would).
   */
  private block(index: number, first: boolean): readonly RecordedEvent[] | null {
    const held = this.blocks.get(index);
    if (held) return held;
    if (first && !this.asked.has(index)) {
      this.asked.set(index, true);
      return null;
    }
    this.asked.delete(index);
    const from = BigInt(index) * BigInt(BLOCK_SIZE);
    const block = this.read(from, from + BigInt(BLOCK_SIZE));
    this.blocks.set(index, block);
    return block;
  }
}
