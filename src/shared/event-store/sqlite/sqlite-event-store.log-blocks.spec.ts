import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventFilter, RecordedEvent, Subscription } from '../event-store.port';
import { LogBlocks } from './log-blocks';
import { SqliteEventStore } from './sqlite-event-store.adapter';

/**
 * Subscriptions far behind the recent appends (a rebuild, or read models behind a campaign) take
 * their pages from the log's blocks, read once for all of them. Each must still see exactly what
 * a read of the log with its filter sees: every event once, in order, while appends go on.
 */
describe('SqliteEventStore: subscriptions behind the recent appends share the log blocks', () => {
  let dir: string;
  let store: SqliteEventStore;
  const subscriptions: Subscription[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sms-wallet-blocks-'));
    store = new SqliteEventStore(join(dir, 'events.sqlite'), { pollIntervalMs: 50 });
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await Promise.all(subscriptions.splice(0).map((s) => s.stop()));
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Appends `count` events in appends of 250: a wallet's reservation and a message's queueing, in turn. */
  async function appendMany(count: number, from: number): Promise<void> {
    for (let n = from; n < from + count; n += 250) {
      await store.appendAll(
        Array.from({ length: 125 }, (_, i) => [
          { streamId: `wallet-${(n + i) % 7}-${n + i}`, events: [{ type: 'CreditsReserved', data: { n: n + i } }], expected: 'any' as const },
          { streamId: `message-${n + i}`, events: [{ type: 'MessageQueued', data: { n: n + i } }], expected: 'any' as const },
        ]).flat(),
      );
    }
  }

  async function readWhole(filter: EventFilter | undefined): Promise<bigint[]> {
    const seen: bigint[] = [];
    let after = 0n;
    for (;;) {
      const page = await store.readAll({ after, limit: 1000, filter });
      if (page.length === 0) return seen;
      seen.push(...page.map((e) => e.position));
      after = page[page.length - 1].position;
    }
  }

  it('gives each subscription every event its filter matches, once and in order, from blocks read once', async () => {
    await appendMany(12_000, 0);
    const filters: Array<EventFilter | undefined> = [
      undefined,
      { streamPrefixes: ['wallet-'] },
      { streamPrefixes: ['message-', 'wallet-'], eventTypes: ['MessageQueued'] },
      { eventTypes: ['CreditsReserved'] },
    ];
    const pages = jest.spyOn(LogBlocks.prototype, 'page');
    const logs = filters.map(() => ({ positions: [] as bigint[], caughtUp: 0n }));
    filters.forEach((filter, i) =>
      subscriptions.push(
        store.subscribe({
          filter,
          limit: 500,
          onEvents: async (events: readonly RecordedEvent[]) => {
            logs[i].positions.push(...events.map((e) => e.position));
            await new Promise((resolve) => setImmediate(resolve)); // the others read meanwhile
          },
          onCaughtUp: (position) => void (logs[i].caughtUp = position),
        }),
      ),
    );
    await appendMany(3_000, 12_000); // appends go on while they read
    const head = await store.headPosition();
    await waitUntil(() => logs.every((log) => log.caughtUp >= head), 30_000);

    for (const [i, filter] of filters.entries()) {
      const expected = await readWhole(filter);
      expect({ filter: i, count: logs[i].positions.length }).toEqual({ filter: i, count: expected.length });
      expect(logs[i].positions).toEqual(expected);
    }
    // The path under test was taken: pages came from blocks shared by the subscriptions.
    expect(pages.mock.results.some((r) => r.type === 'return' && r.value !== null)).toBe(true);
  });
});

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
