import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import type { EventStore, ReadStreamOptions } from '../../shared/event-store/event-store.port';
import { SqliteEventStore } from '../../shared/event-store/sqlite/sqlite-event-store.adapter';
import { addCredits, open, reserve, smsLeft, walletDecider } from '../domain/wallet.decider';
import { walletStream } from '../domain/wallet.events';
import { WalletCommandQueue } from './wallet-command-queue';

const now = new Date('2026-11-23T00:00:00Z');
const walletId = 'wal_queue';

/** Two queues on one file: two server processes sharing a wallet. */
describe('WalletCommandQueue with another process writing the same wallet', () => {
  let dir: string;
  let mine: SqliteEventStore;
  let theirs: SqliteEventStore;
  let reads: number;
  let queue: WalletCommandQueue;
  let other: WalletCommandQueue;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wallet-queue-'));
    mine = new SqliteEventStore(join(dir, 'events.db'));
    theirs = new SqliteEventStore(join(dir, 'events.db'));
    reads = 0;
    const counted = countingReads(mine, () => reads++);
    queue = new WalletCommandQueue(counted, new AggregateStore(counted));
    other = new WalletCommandQueue(theirs, new AggregateStore(theirs));
    const opened = await queue.execute(walletId, (w) =>
      open(w, { walletId, accountId: 'acc_1', environment: 'TEST', initialCredits: 2, now }),
    );
    expect(opened.ok).toBe(true);
  });

  afterEach(async () => {
    await mine.close();
    await theirs.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const reserveOne = (q: WalletCommandQueue, messageId: string) =>
    q.execute(walletId, (w) => reserve(w, { messageId, sms: 1, now }));

  it('reserves on the wallet it remembers without reading the stream', async () => {
    reads = 0;
    expect((await reserveOne(queue, 'msg_1')).ok).toBe(true);
    expect(reads).toBe(0);
  });

  it('never refuses on stale credit: credits added elsewhere are found before answering', async () => {
    expect((await reserveOne(queue, 'msg_1')).ok).toBe(true);
    expect((await reserveOne(queue, 'msg_2')).ok).toBe(true);
    const granted = await other.execute(walletId, (w) =>
      addCredits(w, { sourceId: 'grant_1', source: 'operator_grant', sms: 1, reason: 'test', now }),
    );
    expect(granted.ok).toBe(true);
    const third = await reserveOne(queue, 'msg_3');
    expect(third).toMatchObject({ ok: true });
    if (third.ok) expect(smsLeft(third.value.wallet)).toBe(0);
  });

  it('a reservation decided on a stale wallet is decided again, never double-spending', async () => {
    expect((await reserveOne(queue, 'msg_1')).ok).toBe(true);
    // The other process takes the last credit; this queue still remembers one left.
    expect((await reserveOne(other, 'msg_2')).ok).toBe(true);
    const refused = await reserveOne(queue, 'msg_3');
    expect(refused).toMatchObject({ ok: false, error: { code: 'insufficient_credit' } });
    const stored = await new AggregateStore(theirs).load(walletStream(walletId), walletDecider);
    expect(stored.revision).toBe(3n); // opened, credits, two reservations: nothing more
    expect(smsLeft(stored.state)).toBe(0);
  });
});

/** The same store, counting the events its stream reads return. */
function countingReads(store: EventStore, onRead: () => void): EventStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'readStream') {
        return async (streamId: string, options?: ReadStreamOptions) => {
          const events = await target.readStream(streamId, options);
          for (let i = 0; i < events.length; i++) onRead();
          return events;
        };
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
