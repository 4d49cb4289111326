import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordedEvent, SubscribeOptions, Subscription } from '../event-store.port';
import { SqliteEventStore, SqliteEventStoreOptions } from './sqlite-event-store.adapter';

/**
 * Appends another process makes to the same file are found by the store, for all its
 * subscriptions at once: at rest by watching the WAL file (nothing polls), while writes are
 * coming by one look every poll interval. A second store on the file stands for the other process.
 */
describe('SqliteEventStore: other writers', () => {
  let dir: string;
  let file: string;
  const stores: SqliteEventStore[] = [];
  const subscriptions: Subscription[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sms-wallet-writers-'));
    file = join(dir, 'events.sqlite');
  });

  afterEach(async () => {
    await Promise.all(subscriptions.splice(0).map((s) => s.stop()));
    await Promise.all(stores.splice(0).map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  function open(options: SqliteEventStoreOptions = {}): SqliteEventStore {
    const store = new SqliteEventStore(file, options);
    stores.push(store);
    return store;
  }

  function follow(
    store: SqliteEventStore,
    options: Omit<SubscribeOptions, 'onEvents'> & Partial<SubscribeOptions> = {},
  ) {
    const log = { events: [] as RecordedEvent[], caughtUp: [] as bigint[] };
    subscriptions.push(
      store.subscribe({
        ...options,
        onEvents: async (events) => {
          await options.onEvents?.(events);
          log.events.push(...events);
        },
        onCaughtUp: (position) => void log.caughtUp.push(position),
      }),
    );
    return log;
  }

  const event = (type: string) => ({ type, data: { type } });
  /** Counts the store's head queries: every look for other writers is one. */
  const countLooks = (store: SqliteEventStore) =>
    jest.spyOn(store as unknown as { head: () => bigint }, 'head');

  it('at rest, finds another process’s append through the watch of its WAL, without polling', async () => {
    // No net within the test (an hour), so only the watch can tell of the other writer.
    const here = open({ pollIntervalMs: 20, restAfterMs: 50, restPollMs: 3_600_000 });
    const elsewhere = open();
    const looks = countLooks(here);
    const logs = [follow(here), follow(here, { filter: { streamPrefixes: ['wallet-'] } })];
    await waitUntil(() => logs.every((log) => log.caughtUp.length > 0) && here.resting);
    looks.mockClear();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Resting: nothing looks at the log but the one look that follows setting the watch (a write
    // made just before it shows a moment later), where it polled every 20 ms before.
    expect(looks.mock.calls.length).toBeLessThanOrEqual(1);
    expect(here.resting).toBe(true);

    const appended = await elsewhere.append('wallet-1', [event('Opened')], 'no_stream');
    await waitUntil(() => logs.every((log) => log.events.length === 1));
    expect(logs[0].events[0].position).toBe(appended.position);
    expect(logs[1].events[0].position).toBe(appended.position);
    // Writes came from elsewhere: it polls while they might go on, then rests again.
    await waitUntil(() => here.resting);
    const next = await elsewhere.append('wallet-1', [event('Added')], 0n);
    await waitUntil(() => logs[0].events.at(-1)?.position === next.position);
  });

  it('a lone append of its own does not end the rest', async () => {
    const here = open({ pollIntervalMs: 20, restAfterMs: 200, restPollMs: 3_600_000 });
    const log = follow(here);
    await waitUntil(() => log.caughtUp.length > 0 && here.resting);
    const own = await here.append('wallet-1', [event('Opened')], 'no_stream');
    await waitUntil(() => log.events.length === 1);
    expect(log.events[0].position).toBe(own.position);
    expect(here.resting).toBe(true);
  });

  it('polls when it may not watch the file, as every subscription used to', async () => {
    const here = open({ pollIntervalMs: 20, restAfterMs: 50, watch: false });
    const elsewhere = open();
    const log = follow(here);
    await waitUntil(() => log.caughtUp.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(here.resting).toBe(false);
    const appended = await elsewhere.append('wallet-1', [event('Opened')], 'no_stream');
    await waitUntil(() => log.events.length === 1);
    expect(log.events[0].position).toBe(appended.position);
  });

  it('a subscription busy when another writer’s appends are found reads them before it waits', async () => {
    const here = open({ pollIntervalMs: 20, restAfterMs: 3_600_000 });
    const elsewhere = open();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const busy = follow(here, { onEvents: () => held });
    const other = follow(here);
    await waitUntil(() => busy.caughtUp.length > 0 && other.caughtUp.length > 0);

    await here.append('wallet-1', [event('Opened')], 'no_stream'); // `busy` now holds this batch
    const theirs = await elsewhere.append('wallet-2', [event('Opened')], 'no_stream');
    // The look found it (the other subscription was woken for it) while `busy` was held.
    await waitUntil(() => other.events.some((e) => e.position === theirs.position));
    release();
    await waitUntil(() => busy.events.some((e) => e.position === theirs.position));
    expect(busy.events.map((e) => e.position)).toEqual(other.events.map((e) => e.position));
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
