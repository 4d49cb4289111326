import { APP_CONFIG, AppConfig } from '../../src/config/app-config';
import { createEventStore } from '../../src/shared/event-store/create-event-store';
import {
  EVENT_STORE,
  EventStore,
  NewEvent,
  ExpectedRevision,
  StoreUnavailableError,
  StreamAppend,
} from '../../src/shared/event-store/event-store.port';
import { SqliteEventStore } from '../../src/shared/event-store/sqlite/sqlite-event-store.adapter';
import { loadMessagingOptions, MESSAGING_OPTIONS } from '../../src/messaging/messaging.options';
import { CapturedLogs } from '../support/captured-logs';
import { readEvents, replayWallets, until } from '../support/server-process';
import { embeddedStoreOnly } from '../support/engines';
import { createMerchant, Merchant } from '../support/merchant';
import { finalState, send, SANDBOX } from '../support/messaging';
import { startTestApp, TestApp, TestResponse } from '../support/test-app';
import { openReservationsIn, settledIn } from '../support/wallet-settlements';

/**
 * Store faults: while the event store cannot be reached or cannot write, requests answer 503
 * in API.md's error shape with Retry-After; nothing is left half written (a send whose message
 * could not be queued leaves a reservation that the orphan reaper releases); and the service
 * recovers by itself once the store does.
 */
jest.setTimeout(120_000);
const { it, beforeAll } = embeddedStoreOnly(
  'store faults are injected into the SQLite event store (SQLITE_FULL) and read back from events.db',
);

type Fault = null | 'unavailable' | 'message-appends' | 'disk-full';

/** The real SQLite event store, with switchable faults. */
class FaultyEventStore implements EventStore {
  fault: Fault = null;
  constructor(readonly inner: SqliteEventStore) {
    // Disk full is injected below the adapter, at the SQLite statement that inserts events, so
    // the adapter's own error mapping (sqlite-errors.ts) turns SQLITE_FULL into a 503.
    const statements = (
      inner as unknown as { statements: { insert: { run: (...args: unknown[]) => unknown } } }
    ).statements;
    const insert = statements.insert;
    const run = insert.run.bind(insert);
    insert.run = (...args: unknown[]) => {
      if (this.fault === 'disk-full')
        throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      return run(...args);
    };
  }
  private check(what: string, streamId?: string) {
    if (this.fault === 'unavailable')
      throw new StoreUnavailableError(`${what}: store unreachable (test fault)`);
    if (this.fault === 'message-appends' && what === 'append' && streamId?.startsWith('message-')) {
      throw new StoreUnavailableError('append: store failed after the reservation (test fault)');
    }
  }
  /** True: behave like EventStoreDB, which writes several streams one after the other. */
  separateWrites = false;
  get atomicMultiStreamAppends() {
    return !this.separateWrites;
  }
  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision) {
    this.check('append', streamId);
    return this.inner.append(streamId, events, expected);
  }
  async appendAll(appends: readonly StreamAppend[]) {
    if (this.separateWrites) {
      const results = [];
      for (const a of appends) results.push(await this.append(a.streamId, a.events, a.expected));
      return results;
    }
    for (const { streamId } of appends) this.check('append', streamId);
    return this.inner.appendAll(appends);
  }
  async readStream(...args: Parameters<EventStore['readStream']>) {
    this.check('readStream');
    return this.inner.readStream(...args);
  }
  async readAll(...args: Parameters<EventStore['readAll']>) {
    this.check('readAll');
    return this.inner.readAll(...args);
  }
  subscribe(...args: Parameters<EventStore['subscribe']>) {
    return this.inner.subscribe(...args);
  }
  async headPosition() {
    this.check('headPosition');
    return this.inner.headPosition();
  }
  async ping() {
    this.check('ping');
    return this.inner.ping();
  }
  close() {
    return this.inner.close();
  }
}

let t: TestApp;
let store: FaultyEventStore;
let m: Merchant;
/**
 * The app's log, kept rather than printed: every fault below is logged as an error (with the
 * request that met it), and nothing else may be.
 */
const logs = new CapturedLogs();
const INJECTED = [/\(test fault\)/, /SQLITE_FULL/];

beforeAll(async () => {
  t = await startTestApp({
    keepData: true,
    logs,
    env: { TEST_DLR_DELAY_MS: '100' },
    override: (builder) =>
      builder
        // The orphan reaper with a short grace: a reservation without its message is reaped after 0.5 s.
        .overrideProvider(MESSAGING_OPTIONS)
        .useValue({ ...loadMessagingOptions({}), orphanGraceMs: 500, orphanSweepMs: 300 })
        .overrideProvider(EVENT_STORE)
        .useFactory({
          factory: (config: AppConfig) => {
            store = new FaultyEventStore(createEventStore(config) as SqliteEventStore);
            return store;
          },
          inject: [APP_CONFIG],
        }),
  });
  m = await createMerchant(t);
});

afterAll(async () => {
  await t?.close();
});

afterEach(() => {
  const unexpected = logs.unexpectedErrors(...INJECTED);
  logs.clear();
  expect(unexpected).toEqual([]);
});

/** The error lines logged for requests to `route` (`POST /v1/messages`) that met `fault`. */
const loggedFaults = (route: string, fault: RegExp) =>
  logs.errors().filter((line) => line.includes(`[http] ${route} req_`) && fault.test(line));

function expect503(r: TestResponse) {
  expect(r.status).toBe(503);
  expect(r.body).toEqual({
    error: {
      type: 'api_error',
      code: 'service_unavailable',
      message: expect.any(String),
      request_id: expect.stringMatching(/^req_/),
    },
  });
  expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(r.text).not.toMatch(/SQLITE|sqlite|\.db|stack/);
}

const walletEvents = () =>
  readEvents(t.dataDir, 'wallet').filter((e) => e.streamId === `wallet-${m.wallets.TEST}`);

/** Waits until every reservation on the wallet has been captured or released. */
async function settled(): Promise<void> {
  await until(
    () => {
      return openReservationsIn(walletEvents()).size === 0 ? true : undefined;
    },
    30_000,
    'no open reservation',
  );
}

it('store unreachable: 503 with Retry-After, /ready fails, then recovers', async () => {
  expect((await send(t, m.testKey, { to: SANDBOX.delivered })).status).toBe(200);
  const before = walletEvents().length;
  store.fault = 'unavailable';
  try {
    expect503(await send(t, m.testKey, { to: SANDBOX.delivered }));
    expect503(await t.request('GET', '/ready'));
    expect503(await t.request('GET', `/v1/wallet/events`, { key: m.testKey }));
    // Nothing was written while it was down.
    expect(walletEvents().length).toBe(before);
  } finally {
    store.fault = null;
  }
  // Each refusal is an error in the log, with its request and the store's own words.
  expect(loggedFaults('POST /v1/messages', /append: store unreachable/)).toHaveLength(1);
  expect(loggedFaults('GET /ready', /ping: store unreachable/)).toHaveLength(1);
  expect(loggedFaults('GET /v1/wallet/events', /store unreachable/)).toHaveLength(1);
  expect((await t.request('GET', '/ready')).status).toBe(200);
  const r = await send(t, m.testKey, { to: SANDBOX.delivered });
  expect(r.status).toBe(200);
  expect((await finalState(t, m.testKey, r.body.id)).status).toBe('DELIVERED');
});

it('a failure writing a send (reservation and message in one transaction): 503, and nothing is reserved', async () => {
  const smsLeft = async () => (await t.request('GET', '/v1/billing', { key: m.testKey })).body.sms_left;
  // A delivered message's capture is recorded a little after its DELIVERED: count once it is.
  await settled();
  const before = walletEvents().length;
  const left = await smsLeft();
  store.fault = 'message-appends';
  try {
    for (let i = 0; i < 3; i++) expect503(await send(t, m.testKey, { to: SANDBOX.delivered }));
  } finally {
    store.fault = null;
  }
  expect(loggedFaults('POST /v1/messages', /store failed after the reservation/)).toHaveLength(3);
  expect(walletEvents().length).toBe(before);
  expect(await smsLeft()).toBe(left);
});

it('on a store that writes streams one by one (EventStoreDB), a failure between reserving and queuing: 503, and the orphaned reservation is released, not lost', async () => {
  store.fault = 'message-appends';
  store.separateWrites = true;
  let reservedFor: string[] = [];
  try {
    const before = new Set(
      walletEvents()
        .filter((e) => e.type === 'CreditsReserved')
        .map((e) => e.data.messageId),
    );
    for (let i = 0; i < 3; i++) expect503(await send(t, m.testKey, { to: SANDBOX.delivered }));
    reservedFor = walletEvents()
      .filter((e) => e.type === 'CreditsReserved' && !before.has(e.data.messageId))
      .map((e) => e.data.messageId);
    // The half that did happen: the reservation (the wallet append came first).
    expect(reservedFor).toHaveLength(3);
  } finally {
    store.fault = null;
    store.separateWrites = false;
  }
  // Once the store works again, the reaper marks those messages rejected and releases the credits.
  await until(
    () => {
      const released = new Set(settledIn(walletEvents()).released);
      return reservedFor.every((id) => released.has(id)) ? true : undefined;
    },
    30_000,
    'the orphaned reservations to be released',
  );
  const messages = readEvents(t.dataDir, 'message');
  for (const id of reservedFor) {
    expect(messages.filter((e) => e.streamId === `message-${id}`).map((e) => e.type)).toEqual([
      'MessageRejected',
    ]);
    expect((await t.request('GET', `/v1/messages/${id}`, { key: m.testKey })).status).toBe(404);
  }
});

it('disk full (SQLITE_FULL on append): 503, nothing recorded, and sends work again once there is room', async () => {
  const before = readEvents(t.dataDir, 'message').length;
  store.fault = 'disk-full';
  try {
    expect503(await send(t, m.testKey, { to: SANDBOX.delivered }));
    expect503(await send(t, m.testKey, { to: '+233241234567' }));
  } finally {
    store.fault = null;
  }
  expect(loggedFaults('POST /v1/messages', /append: SQLITE_FULL/)).toHaveLength(2);
  expect(readEvents(t.dataDir, 'message').length).toBe(before);
  const r = await send(t, m.testKey, { to: SANDBOX.delivered });
  expect(r.status).toBe(200);
  expect((await finalState(t, m.testKey, r.body.id)).status).toBe('DELIVERED');
});

it('after all the faults the wallet balances (wallet:replay through the CLI)', async () => {
  await settled();
  const [{ code, replay }] = await replayWallets(t.dataDir, [m.wallets.TEST]);
  expect({ code, consistent: replay.consistent }).toEqual({ code: 0, consistent: true });
  expect(replay.reserved).toBe(0);
  expect(replay.credits_in).toBe(replay.sms_left + replay.captured + replay.reserved);
  // Three delivered messages of one credit each were captured; the 503'd sends cost nothing.
  expect(replay.captured).toBe(3);
  expect(replay.sms_left).toBe(100 - 3);
  const billing = await t.request('GET', '/v1/billing', { key: m.testKey });
  expect(billing.body.sms_left).toBe(97);
});
