import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConcurrencyError, RecordedEvent, SubscribeOptions, Subscription } from '../event-store.port';
import { EventRow, SqliteEventStore } from './sqlite-event-store.adapter';

/**
 * Subscriptions are served from the appends this process just committed. These cases pin down
 * when that window may stand for the log: another store on the same file (another process)
 * takes positions the window never holds, and then the log must be read.
 */
describe('SqliteEventStore: subscriptions served from recent appends', () => {
  let dir: string;
  let file: string;
  const stores: SqliteEventStore[] = [];
  const subscriptions: Subscription[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sms-wallet-recent-'));
    file = join(dir, 'events.sqlite');
  });

  afterEach(async () => {
    await Promise.all(subscriptions.splice(0).map((s) => s.stop()));
    await Promise.all(stores.splice(0).map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  /** A store on the shared file; a long poll means only its own appends wake its subscriptions. */
  function open(pollIntervalMs = 60_000): SqliteEventStore {
    const store = new SqliteEventStore(file, { pollIntervalMs });
    stores.push(store);
    return store;
  }

  function follow(store: SqliteEventStore, options: Omit<SubscribeOptions, 'onEvents'> = {}) {
    const log = { events: [] as RecordedEvent[], caughtUp: [] as bigint[] };
    subscriptions.push(
      store.subscribe({
        ...options,
        onEvents: (events) => void log.events.push(...events),
        onCaughtUp: (position) => void log.caughtUp.push(position),
      }),
    );
    return log;
  }

  const event = (type: string, data: unknown = { type }) => ({ type, data });
  const positions = (events: readonly RecordedEvent[]) => events.map((e) => e.position);
  const typesOf = (events: readonly RecordedEvent[]) => events.map((e) => e.type);

  it('delivers this process’ appends as a read of the log would, parsed once for every subscriber', async () => {
    const store = open();
    const first = follow(store);
    const second = follow(store, { filter: { streamPrefixes: ['wallet-'] } });
    await waitUntil(() => first.caughtUp.length > 0 && second.caughtUp.length > 0);

    const opened = await store.append(
      'wallet-1',
      [{ type: 'Opened', data: { sms: 5, nested: { list: [1, 2] } }, metadata: { by: 'test' } }],
      'no_stream',
    );
    const other = await store.append('account-1', [event('Registered')], 'no_stream');
    const added = await store.append('wallet-1', [event('Added', { sms: 3 })], 0n);
    await waitUntil(() => first.events.length === 3 && second.events.length === 2);

    expect(positions(first.events)).toEqual([opened.position, other.position, added.position]);
    expect(first.events).toEqual(await store.readAll());
    expect(first.events[0]).toEqual({
      streamId: 'wallet-1',
      revision: 0n,
      position: opened.position,
      type: 'Opened',
      data: { sms: 5, nested: { list: [1, 2] } },
      metadata: { by: 'test' },
      recordedAt: expect.any(Date),
    });
    expect(first.events[1].metadata).toEqual({});
    expect(typesOf(second.events)).toEqual(['Opened', 'Added']);
    // One parsed event for both subscribers: they came from memory, not from two reads.
    expect(second.events[0]).toBe(first.events[0]);
    expect(second.events[1]).toBe(first.events[2]);
    // The filtered one looked past the account's event up to the head.
    await waitUntil(() => second.caughtUp.at(-1) === added.position);
  });

  it('parses an append only when a subscription wants it, and then once for all', async () => {
    const store = open();
    const wallets = follow(store, { filter: { streamPrefixes: ['wallet-'] } });
    const alsoWallets = follow(store, { filter: { eventTypes: ['Opened'] } });
    await waitUntil(() => wallets.caughtUp.length > 0 && alsoWallets.caughtUp.length > 0);

    const parse = jest.spyOn(JSON, 'parse');
    for (let n = 1; n <= 20; n++) await store.append(`account-${n}`, [event('Registered')], 'no_stream');
    const { position } = await store.append('wallet-1', [event('Opened')], 'no_stream');
    await waitUntil(() => wallets.caughtUp.at(-1) === position && alsoWallets.caughtUp.at(-1) === position);

    // The twenty accounts' events were passed over unparsed; the wallet's was parsed once (its
    // data and metadata) and handed to both subscribers as the same object.
    const parsedTexts = parse.mock.calls.map(([text]) => text);
    parse.mockRestore();
    expect(parsedTexts.filter((text) => String(text).includes('Registered'))).toEqual([]);
    expect(parsedTexts.filter((text) => String(text).includes('Opened'))).toHaveLength(1);
    expect(wallets.events).toHaveLength(1);
    expect(alsoWallets.events[0]).toBe(wallets.events[0]);
  });

  it('keeps only committed appends: a refused append in the same batch leaves no gap', async () => {
    const store = open();
    const log = follow(store);
    await waitUntil(() => log.caughtUp.length > 0);
    await store.append('wallet-1', [event('Opened')], 'no_stream');

    const outcomes = await Promise.allSettled([
      store.append('wallet-2', [event('Opened'), event('Added')], 'no_stream'),
      store.append('wallet-1', [event('Late')], 'no_stream'), // refused: the stream exists
      store.append('wallet-3', [event('Opened')], 'no_stream'),
    ]);
    expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: expect.any(ConcurrencyError) });
    await waitUntil(() => log.events.length === 4);

    expect(log.events).toEqual(await store.readAll());
    expect(typesOf(log.events)).toEqual(['Opened', 'Opened', 'Added', 'Opened']);
  });

  it('reads the log when another process appended between two appends of this one', async () => {
    const here = open();
    const elsewhere = open();
    const log = follow(here);
    await waitUntil(() => log.caughtUp.length > 0);

    const first = await here.append('wallet-1', [event('Opened')], 'no_stream');
    await waitUntil(() => log.events.length === 1);
    // Appended without a word to `here`: its window cannot know about this position.
    const between = await elsewhere.append('account-1', [event('Registered')], 'no_stream');
    const last = await here.append('wallet-1', [event('Added')], 0n);
    await waitUntil(() => log.events.length >= 3);

    expect(positions(log.events)).toEqual([first.position, between.position, last.position]);
    expect(log.events).toEqual(await here.readAll());
  });

  it('reads the log when another process appended after this one’s last append', async () => {
    const here = open(10);
    const elsewhere = open();
    const all = follow(here);
    const wallets = follow(here, { filter: { streamPrefixes: ['wallet-'] } });
    await waitUntil(() => all.caughtUp.length > 0 && wallets.caughtUp.length > 0);

    const first = await here.append('wallet-1', [event('Opened')], 'no_stream');
    await waitUntil(() => all.events.length === 1 && wallets.events.length === 1);
    const after = await elsewhere.append('wallet-2', [event('Opened')], 'no_stream');
    // Only the poll finds it: the head has moved past the window.
    await waitUntil(() => all.events.length === 2 && wallets.events.length === 2);
    const next = await here.append('wallet-1', [event('Added')], 0n);
    await waitUntil(() => all.events.length === 3 && wallets.events.length === 3);

    const expected = [first.position, after.position, next.position];
    expect(positions(all.events)).toEqual(expected);
    expect(positions(wallets.events)).toEqual(expected);
  });

  it('reads another writer’s appends once for all its subscribers, and is woken by a notice', async () => {
    const here = open();
    const elsewhere = open();
    const logs = [
      follow(here),
      follow(here, { filter: { streamPrefixes: ['wallet-'] } }),
      follow(here, { filter: { eventTypes: ['Added'] } }),
    ];
    await waitUntil(() => logs.every((log) => log.caughtUp.length > 0));

    // Another thread of this process appends, and says so (the poll is a minute away).
    await elsewhere.append('wallet-1', [event('Opened'), event('Added')], 'no_stream');
    await elsewhere.append('account-1', [event('Registered')], 'no_stream');
    here.notifyAppended();
    await waitUntil(
      () => logs[0].events.length === 3 && logs[1].events.length === 2 && logs[2].events.length === 1,
    );

    expect(logs[0].events).toEqual(await here.readAll());
    // The same parsed objects for all three: the tail was read once, not once per subscriber.
    expect(logs[1].events[1]).toBe(logs[0].events[1]);
    expect(logs[2].events[0]).toBe(logs[0].events[1]);

    // Its own next append joins on after them, with nothing missed in between.
    const own = await here.append('wallet-1', [event('Added')], 1n);
    await waitUntil(() => logs[0].events.length === 4);
    expect(positions(logs[0].events)).toEqual(positions(await here.readAll()));
    expect(logs[0].events[3].position).toBe(own.position);
  });

  it('reads the log when another writer appended more than the window takes in at once', async () => {
    const here = open();
    const elsewhere = open();
    const logs = [follow(here), follow(here, { filter: { eventTypes: ['Added'] } }), follow(here)];
    await waitUntil(() => logs.every((log) => log.caughtUp.length > 0));
    await here.append('wallet-0', [event('Opened')], 'no_stream'); // the window holds its own append

    // A batch bigger than the window reads in one go (2,048), told of without its rows: the
    // window must not stand for the log's head, or the subscriptions rest at its end.
    const batch = Array.from({ length: 2100 }, (_, i) => ({
      streamId: `wallet-${i + 1}`,
      events: [event('Added', { i })],
      expected: 'no_stream' as const,
    }));
    const written = await elsewhere.appendAll(batch);
    here.notifyAppended();
    const head = written[written.length - 1].position;
    await waitUntil(() => logs.every((log) => log.caughtUp.some((p) => p === head)));

    expect(logs[0].events).toHaveLength(2101);
    expect(logs[1].events).toHaveLength(2100);
    expect(positions(logs[2].events)).toEqual(positions(await here.readAll({ limit: 10_000 })));
  });

  /** What the server's HTTP thread hands its worker: the rows another store committed. */
  function tellRowsOf(from: SqliteEventStore) {
    const rows: EventRow[] = [];
    from.onCommitted((committed) => rows.push(...committed));
    return () => rows.splice(0);
  }

  /** Counts the store's reads of the log (the head, the shared tail, a subscription's own page). */
  function countReads(store: SqliteEventStore) {
    const spied = store as unknown as Record<'head' | 'readIntoRecent' | 'readAllNow', () => unknown>;
    return (['head', 'readIntoRecent', 'readAllNow'] as const).map((name) => jest.spyOn(spied, name));
  }

  it('takes another thread’s committed rows as its own appends, without reading the log', async () => {
    const here = open();
    const elsewhere = open();
    const committed = tellRowsOf(elsewhere);
    const logs = [
      follow(here),
      follow(here, { filter: { streamPrefixes: ['wallet-'] } }),
      follow(here, { filter: { eventTypes: ['Registered'] } }),
    ];
    await waitUntil(() => logs.every((log) => log.caughtUp.length > 0));
    await here.append('wallet-1', [event('Opened')], 'no_stream');
    await waitUntil(() => logs[0].events.length === 1 && logs[1].events.length === 1);

    const reads = countReads(here);
    await elsewhere.append('wallet-2', [event('Opened'), event('Added', { sms: 2 })], 'no_stream');
    const { position: head } = await elsewhere.append('account-1', [event('Registered')], 'no_stream');
    here.notifyAppended(committed());
    await waitUntil(
      () => logs[0].events.length === 4 && logs[1].events.length === 3 && logs[2].events.length === 1,
    );
    await waitUntil(() => logs.every((log) => log.caughtUp.at(-1) === head));

    for (const read of reads) expect(read).not.toHaveBeenCalled();
    reads.forEach((read) => read.mockRestore());
    const all = await here.readAll();
    expect(logs[0].events).toEqual(all);
    expect(logs[1].events).toEqual(all.filter((e) => e.streamId.startsWith('wallet-')));
    expect(logs[2].events[0]).toBe(logs[0].events[3]);
  });

  it('reads the log when another thread’s rows do not follow on (a third writer came between)', async () => {
    const here = open();
    const thread = open();
    const process2 = open();
    const committed = tellRowsOf(thread);
    const logs = [follow(here), follow(here), follow(here, { filter: { streamPrefixes: ['account-'] } })];
    await waitUntil(() => logs.every((log) => log.caughtUp.length > 0));
    await here.append('wallet-1', [event('Opened')], 'no_stream');
    await waitUntil(() => logs[0].events.length === 1);

    await process2.append('account-1', [event('Registered')], 'no_stream'); // no word of it
    await thread.append('wallet-2', [event('Opened')], 'no_stream');
    here.notifyAppended(committed());
    await waitUntil(() => logs[0].events.length === 3 && logs[1].events.length === 3);
    await waitUntil(() => logs[2].events.length === 1);

    const all = await here.readAll();
    expect(logs[0].events).toEqual(all);
    expect(logs[1].events).toEqual(all);
  });

  it('ignores rows it already read from the log (a notice that came late)', async () => {
    const here = open();
    const elsewhere = open();
    const committed = tellRowsOf(elsewhere);
    const log = follow(here);
    await waitUntil(() => log.caughtUp.length > 0);
    await here.append('wallet-1', [event('Opened')], 'no_stream');
    await elsewhere.append('wallet-2', [event('Opened')], 'no_stream');
    const late = committed();
    await here.append('wallet-1', [event('Added')], 0n); // fills the gap from the log first
    await waitUntil(() => log.events.length === 3);

    here.notifyAppended(late);
    const own = await here.append('wallet-1', [event('Added')], 1n);
    await waitUntil(() => log.events.at(-1)?.position === own.position);
    expect(log.events).toEqual(await here.readAll());
  });

  it('fills the gap another writer left before its own append, for every subscriber', async () => {
    const here = open();
    const elsewhere = open();
    const logs = [follow(here), follow(here), follow(here, { filter: { streamPrefixes: ['account-'] } })];
    await waitUntil(() => logs.every((log) => log.caughtUp.length > 0));
    await here.append('wallet-1', [event('Opened')], 'no_stream');
    await waitUntil(() => logs[0].events.length === 1);

    await elsewhere.append('account-1', [event('Registered')], 'no_stream'); // no notice
    await here.append('wallet-1', [event('Added')], 0n);
    await waitUntil(
      () => logs[0].events.length === 3 && logs[1].events.length === 3 && logs[2].events.length === 1,
    );

    const all = await here.readAll();
    expect(logs[0].events).toEqual(all);
    expect(logs[1].events).toEqual(all);
    expect(logs[2].events[0]).toBe(logs[0].events[1]);
  });

  it('falls back to the log for a subscriber further behind than the window holds', async () => {
    const store = open();
    const live = follow(store);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow: RecordedEvent[] = [];
    subscriptions.push(
      store.subscribe({
        limit: 100,
        onEvents: async (events) => {
          await held;
          slow.push(...events);
        },
      }),
    );
    await waitUntil(() => live.caughtUp.length > 0);
    await store.append('wallet-0', [event('Opened')], 'no_stream');
    await waitUntil(() => live.events.length === 1); // the slow one now holds its first page

    const appends = Array.from({ length: 60 }, (_, i) =>
      store.append(
        `wallet-${i + 1}`,
        Array.from({ length: 100 }, (_, n) => event('Added', { n })),
        'no_stream',
      ),
    );
    const results = await Promise.all(appends);
    const head = results[results.length - 1].position;
    release();
    await waitUntil(() => slow.length === 6001 && live.events.length === 6001, 20_000);

    const expected = positions(await store.readAll({ limit: 10_000 }));
    expect(positions(slow)).toEqual(expected);
    expect(positions(live.events)).toEqual(expected);
    expect(expected[expected.length - 1]).toBe(head);
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
