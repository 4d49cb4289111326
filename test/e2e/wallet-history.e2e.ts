import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fold } from '../../src/shared/decider';
import { AggregateStore } from '../../src/shared/event-store/aggregate-store';
import type {
  EventStore,
  ReadStreamOptions,
  RecordedEvent,
} from '../../src/shared/event-store/event-store.port';
import { SqliteEventStore } from '../../src/shared/event-store/sqlite/sqlite-event-store.adapter';
import { smsLeft, walletDecider, walletSnapshots } from '../../src/wallet/domain/wallet.decider';
import { walletStream, WalletEvent } from '../../src/wallet/domain/wallet.events';

/** Counts the events a load reads, the measure that does not depend on how busy the machine is. */
class CountingStore {
  eventsRead = 0;
  constructor(private readonly inner: EventStore) {}
  asStore(): EventStore {
    return new Proxy(this.inner, {
      get: (target, name) =>
        name === 'readStream'
          ? async (stream: string, options?: ReadStreamOptions) => {
              const events: RecordedEvent[] = await target.readStream(stream, options);
              this.eventsRead += events.length;
              return events;
            }
          : (target[name as keyof EventStore] as unknown as (...a: unknown[]) => unknown).bind(target),
    });
  }
}

async function seed(
  store: EventStore,
  aggregates: AggregateStore,
  walletId: string,
  total: number,
): Promise<void> {
  const stream = walletStream(walletId);
  const at = new Date().toISOString();
  const opening: WalletEvent[] = [
    { type: 'WalletOpened', data: { walletId, accountId: 'acct_x', environment: 'TEST', openedAt: at } },
    {
      type: 'CreditsAdded',
      data: { sourceId: 'seed', source: 'operator_grant', sms: total, reason: 'seed', addedAt: at },
    },
  ];
  let state = fold(walletDecider, opening);
  let revision = (await store.append(stream, opening, 'no_stream')).nextExpectedRevision;
  for (let n = 2; n < total;) {
    const chunk: WalletEvent[] = [];
    for (; chunk.length < 1000 && n < total; n += 2) {
      chunk.push({ type: 'CreditsReserved', data: { messageId: `msg_${n}`, sms: 1, reservedAt: at } });
      chunk.push({ type: 'ReservationCaptured', data: { messageId: `msg_${n}`, sms: 1 } });
    }
    state = fold(walletDecider, chunk, state);
    const appended = await store.append(stream, chunk, revision);
    // The same snapshot step the wallet's command queue takes after each append.
    await aggregates.maybeSnapshot(stream, state, revision, appended.nextExpectedRevision, walletSnapshots);
    revision = appended.nextExpectedRevision;
  }
}

describe('loading a wallet does not grow with its history', () => {
  let dir: string;
  let store: SqliteEventStore;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'wallet-history-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a wallet with 100,000 events loads from its snapshot, about as fast as a new one', async () => {
    await seed(store, new AggregateStore(store), 'wal_fresh', 2);
    await seed(store, new AggregateStore(store), 'wal_long', 100_000);

    const counter = new CountingStore(store);
    const aggregates = new AggregateStore(counter.asStore());
    const time = async (walletId: string) => {
      const times: number[] = [];
      for (let i = 0; i < 7; i++) {
        const started = performance.now();
        await aggregates.load(walletStream(walletId), walletDecider, walletSnapshots);
        times.push(performance.now() - started);
      }
      return Math.min(...times);
    };

    counter.eventsRead = 0;
    const fresh = await time('wal_fresh');
    const freshEvents = counter.eventsRead / 7;
    counter.eventsRead = 0;
    const long = await time('wal_long');
    const longEvents = counter.eventsRead / 7;

    const loaded = await aggregates.load(walletStream('wal_long'), walletDecider, walletSnapshots);
    expect(loaded.revision).toBe(99_999n);
    expect(smsLeft(loaded.state)).toBe(100_000 - 49_999);
    // The snapshot plus fewer than one snapshot interval of events, however long the history.
    expect(longEvents).toBeLessThanOrEqual(walletSnapshots.every + 1);
    expect(freshEvents).toBeLessThanOrEqual(2);
    // Generous: a busy machine may be slow, but not a hundred thousand events slow.
    expect(long).toBeLessThan(Math.max(fresh * 50, 100));
  });
});
