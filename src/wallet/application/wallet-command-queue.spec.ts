import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import type { EventStore, ReadStreamOptions } from '../../shared/event-store/event-store.port';
import { SqliteEventStore } from '../../shared/event-store/sqlite/sqlite-event-store.adapter';
import { ConcurrencyError, StreamAppend } from '../../shared/event-store/event-store.port';
import { fold } from '../../shared/decider';
import { smsLeft, walletDecider } from '../domain/wallet.decider';
import { walletStream, type WalletEvent } from '../domain/wallet.events';
import { WalletCommandQueue } from './wallet-command-queue';

const now = new Date('2026-11-23T00:00:00Z');
const clock = { now: () => now };
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
    queue = new WalletCommandQueue(counted, new AggregateStore(counted), clock);
    other = new WalletCommandQueue(theirs, new AggregateStore(theirs), clock);
    const opened = await queue.execute(walletId, {
      type: 'OpenWallet',
      walletId,
      accountId: 'acc_1',
      environment: 'TEST',
      initialCredits: 2,
    });
    expect(opened.ok).toBe(true);
  });

  afterEach(async () => {
    await mine.close();
    await theirs.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const reserveOne = (q: WalletCommandQueue, messageId: string, alongside?: StreamAppend) =>
    q.execute(walletId, { type: 'ReserveCredits', messageId, sms: 1 }, alongside);
  /** msg_1 and msg_2 reserved and queued, as readAll lists them sorted. */
  const twoSendsWritten = () => [
    'message-msg_1 MessageQueued',
    'message-msg_2 MessageQueued',
    `wallet-${walletId} CreditsReserved`,
    `wallet-${walletId} CreditsReserved`,
  ];
  const queued = (messageId: string): StreamAppend => ({
    streamId: `message-${messageId}`,
    events: [{ type: 'MessageQueued', data: { messageId } }],
    expected: 'no_stream',
  });

  it('reserves on the wallet it remembers without reading the stream', async () => {
    reads = 0;
    expect((await reserveOne(queue, 'msg_1')).ok).toBe(true);
    expect(reads).toBe(0);
  });

  it('never refuses on stale credit: credits added elsewhere are found before answering', async () => {
    expect((await reserveOne(queue, 'msg_1')).ok).toBe(true);
    expect((await reserveOne(queue, 'msg_2')).ok).toBe(true);
    const granted = await other.execute(walletId, {
      type: 'AddCredits',
      sourceId: 'grant_1',
      source: 'operator_grant',
      sms: 1,
      reason: 'test',
    });
    expect(granted.ok).toBe(true);
    const third = await reserveOne(queue, 'msg_3');
    expect(third).toMatchObject({ ok: true });
    if (third.ok) expect(third.value.smsLeft).toBe(0);
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

  it('records a reservation and its message in one write, or neither', async () => {
    const before = await mine.headPosition();
    const [first, second, refused] = await Promise.all([
      reserveOne(queue, 'msg_1', queued('msg_1')),
      reserveOne(queue, 'msg_2', queued('msg_2')),
      reserveOne(queue, 'msg_3', queued('msg_3')), // no credit left for it
    ]);
    expect(first.ok && second.ok).toBe(true);
    expect(refused).toMatchObject({ ok: false, error: { code: 'insufficient_credit' } });
    const written = await mine.readAll({ after: before });
    expect(written.map((e) => `${e.streamId} ${e.type}`).sort()).toEqual(twoSendsWritten());
    // The answer's position is its message's: a reader waiting for it has both.
    const messagePosition = (id: string) => written.find((e) => e.streamId === `message-${id}`)?.position;
    if (first.ok) expect(first.value.position).toBe(messagePosition('msg_1'));
    if (second.ok) expect(second.value.position).toBe(messagePosition('msg_2'));
    expect(await mine.readStream('message-msg_3')).toEqual([]);
  });

  it('a message that already exists fails its own send only; the others in the batch go through', async () => {
    await mine.append('message-msg_taken', [{ type: 'MessageRejected', data: {} }], 'no_stream');
    const [taken, fine] = await Promise.allSettled([
      reserveOne(queue, 'msg_taken', queued('msg_taken')),
      reserveOne(queue, 'msg_fine', queued('msg_fine')),
    ]);
    expect(taken).toMatchObject({ status: 'rejected', reason: expect.any(ConcurrencyError) });
    expect(fine).toMatchObject({ status: 'fulfilled', value: { ok: true } });
    const stored = await new AggregateStore(theirs).load(walletStream(walletId), walletDecider);
    expect([...stored.state.reserved].map(([id]) => id)).toEqual(['msg_fine']);
  });

  const reserveBatch = (q: WalletCommandQueue, ids: string[]) =>
    q.execute(
      walletId,
      { type: 'ReserveBatch', reservations: ids.map((messageId) => ({ messageId, sms: 1 })) },
      ids.map(queued),
    );

  it('records a batch’s reservations in one decision with all its messages, or nothing at all', async () => {
    const before = await mine.headPosition();
    const refused = await reserveBatch(queue, ['msg_1', 'msg_2', 'msg_3']); // 2 credits for 3
    expect(refused).toMatchObject({ ok: false, error: { code: 'insufficient_credit' } });
    expect(await mine.readAll({ after: before })).toEqual([]);
    const fits = await reserveBatch(queue, ['msg_1', 'msg_2']);
    expect(fits).toMatchObject({ ok: true, value: { smsLeft: 0 } });
    const written = await mine.readAll({ after: before });
    expect(written.map((e) => `${e.streamId} ${e.type}`).sort()).toEqual(twoSendsWritten());
    if (fits.ok) expect(fits.value.position).toBe(written[written.length - 1].position);
  });

  it('on a store without multi-stream writes, a batch’s messages are written after its reservations', async () => {
    const separate = new Proxy(mine, {
      get: (target, property, receiver) =>
        property === 'atomicMultiStreamAppends' ? false : bound(target, property, receiver),
    });
    const stepwise = new WalletCommandQueue(separate, new AggregateStore(separate), clock);
    const before = await mine.headPosition();
    expect(await reserveBatch(stepwise, ['msg_1', 'msg_2'])).toMatchObject({ ok: true });
    const written = (await mine.readAll({ after: before })).map((e) => `${e.streamId} ${e.type}`);
    expect(written.slice(0, 2)).toEqual([
      `wallet-${walletId} CreditsReserved`,
      `wallet-${walletId} CreditsReserved`,
    ]);
    expect(written.slice(2).sort()).toEqual(['message-msg_1 MessageQueued', 'message-msg_2 MessageQueued']);
  });

  it('on a store without multi-stream writes, the reservation comes first and a failed message leaves it for the reaper', async () => {
    const separate = new Proxy(mine, {
      get: (target, property, receiver) =>
        property === 'atomicMultiStreamAppends' ? false : bound(target, property, receiver),
    });
    const stepwise = new WalletCommandQueue(separate, new AggregateStore(separate), clock);
    await mine.append('message-msg_taken', [{ type: 'MessageRejected', data: {} }], 'no_stream');
    const before = await mine.headPosition();
    const [taken, fine] = await Promise.allSettled([
      reserveOne(stepwise, 'msg_taken', queued('msg_taken')),
      reserveOne(stepwise, 'msg_fine', queued('msg_fine')),
    ]);
    expect(taken).toMatchObject({ status: 'rejected', reason: expect.any(ConcurrencyError) });
    expect(fine).toMatchObject({ status: 'fulfilled', value: { ok: true } });
    const written = (await mine.readAll({ after: before })).map((e) => `${e.streamId} ${e.type}`);
    expect(written.slice(0, 1)).toEqual([`wallet-${walletId} CreditsReserved`]);
    expect(written).toContain('message-msg_fine MessageQueued');
    const stored = await new AggregateStore(theirs).load(walletStream(walletId), walletDecider);
    expect([...stored.state.reserved].map(([id]) => id).sort()).toEqual(['msg_fine', 'msg_taken']);
  });
});

function bound(target: object, property: string | symbol, receiver: unknown): unknown {
  const value = Reflect.get(target, property, receiver) as unknown;
  return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
}

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

/** Captures and releases wait a little for another command's write instead of committing alone. */
describe('WalletCommandQueue settlements', () => {
  let dir: string;
  let store: SqliteEventStore;
  let appends: StreamAppend[][];
  /** The turn of the event loop each append was asked in (a setImmediate chain counts them). */
  let turns: number[];
  let turn = 0;
  let counting = true;
  let queue: WalletCommandQueue;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wallet-settle-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
    appends = [];
    turns = [];
    counting = true;
    const tick = () => {
      turn++;
      if (counting) setImmediate(tick);
    };
    tick();
    const recorded = new Proxy(store, {
      get: (target, property, receiver) =>
        property === 'appendAll'
          ? (all: StreamAppend[]) => {
              appends.push(all);
              turns.push(turn);
              return target.appendAll(all);
            }
          : bound(target, property, receiver),
    });
    queue = new WalletCommandQueue(recorded, new AggregateStore(recorded), clock, 60_000);
    for (const id of ['wal_a', 'wal_b']) {
      const opened = await queue.execute(id, {
        type: 'OpenWallet',
        walletId: id,
        accountId: 'acc_1',
        environment: 'TEST',
        initialCredits: 5,
      });
      expect(opened.ok).toBe(true);
      expect((await queue.execute(id, { type: 'ReserveCredits', messageId: `msg_${id}`, sms: 1 })).ok).toBe(
        true,
      );
    }
    appends = [];
    turns = [];
  });

  afterEach(async () => {
    counting = false;
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const typesIn = (all: readonly StreamAppend[]) =>
    all.flatMap((a) => a.events.map((e) => `${a.streamId} ${e.type}`));

  it('go with the next command: in its append on the same wallet, in its turn on another', async () => {
    const captured = queue.execute('wal_a', { type: 'CaptureReservation', messageId: 'msg_wal_a' });
    const released = queue.execute('wal_b', {
      type: 'ReleaseReservation',
      messageId: 'msg_wal_b',
      reason: 'failed',
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(appends).toEqual([]); // the delay here is a minute: they wait for company
    expect(queue.depth().commands).toBe(2);

    const reserved = await queue.execute('wal_a', { type: 'ReserveCredits', messageId: 'msg_next', sms: 2 });
    expect(reserved).toMatchObject({ ok: true, value: { smsLeft: 2 } });
    expect(await captured).toMatchObject({ ok: true, value: { smsLeft: 4 } });
    expect(await released).toMatchObject({ ok: true, value: { smsLeft: 5 } });

    expect(appends.map(typesIn).sort()).toEqual([
      ['wallet-wal_a ReservationCaptured', 'wallet-wal_a CreditsReserved'],
      ['wallet-wal_b ReservationReleased'],
    ]);
    expect(turns).toHaveLength(2);
    expect(turns[0]).toBe(turns[1]);
  });

  it('are written on their own once the delay is over', async () => {
    const quick = new WalletCommandQueue(store, new AggregateStore(store), clock, 5);
    const captured = await quick.execute('wal_a', { type: 'CaptureReservation', messageId: 'msg_wal_a' });
    expect(captured).toMatchObject({ ok: true, value: { smsLeft: 4 } });
    const events = await store.readStream(walletStream('wal_a'));
    expect(events.at(-1)?.type).toBe('ReservationCaptured');
  });

  it('back to back on one wallet are recorded as one ReservationsSettled, each answered for itself', async () => {
    for (const messageId of ['msg_2', 'msg_3'])
      expect((await queue.execute('wal_a', { type: 'ReserveCredits', messageId, sms: 1 })).ok).toBe(true);
    appends = [];
    const settled = [
      queue.execute('wal_a', { type: 'CaptureReservation', messageId: 'msg_wal_a' }),
      queue.execute('wal_a', { type: 'ReleaseReservation', messageId: 'msg_2', reason: 'message failed' }),
      queue.execute('wal_a', { type: 'CaptureReservation', messageId: 'msg_3' }),
    ];
    await queue.execute('wal_a', { type: 'ReserveCredits', messageId: 'msg_next', sms: 1 });

    expect((await Promise.all(settled)).map((r) => r.ok && r.value.events.map((e) => e.type))).toEqual([
      ['ReservationCaptured'],
      ['ReservationReleased'],
      ['ReservationCaptured'],
    ]);
    expect(appends.map(typesIn)).toEqual([
      ['wallet-wal_a ReservationsSettled', 'wallet-wal_a CreditsReserved'],
    ]);
    const events = await store.readStream(walletStream('wal_a'));
    expect(events.at(-2)?.data).toEqual({
      captured: [
        { messageId: 'msg_wal_a', sms: 1 },
        { messageId: 'msg_3', sms: 1 },
      ],
      released: [{ messageId: 'msg_2', sms: 1, reason: 'message failed' }],
    });
    const replayed = fold(walletDecider, events as unknown as WalletEvent[]);
    expect(smsLeft(replayed)).toBe(2); // 5, less msg_wal_a and msg_3 spent and msg_next reserved
    expect([...replayed.reserved]).toEqual([['msg_next', 1]]);
  });

  it('are never run twice: a capture asked again while it waits records once', async () => {
    const first = queue.execute('wal_a', { type: 'CaptureReservation', messageId: 'msg_wal_a' });
    const again = queue.execute('wal_a', { type: 'CaptureReservation', messageId: 'msg_wal_a' });
    await queue.execute('wal_b', {
      type: 'AddCredits',
      sourceId: 'grant_1',
      source: 'operator_grant',
      sms: 1,
      reason: 't',
    });
    expect((await first).ok && (await again).ok).toBe(true);
    const captures = (await store.readStream(walletStream('wal_a'))).filter(
      (e) => e.type === 'ReservationCaptured',
    );
    expect(captures).toHaveLength(1);
  });
});
