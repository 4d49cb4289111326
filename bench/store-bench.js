'use strict';
/**
 * Scenarios 5 and 6, without HTTP, on a fresh store in DATA_DIR (argv[2]):
 *  5. seeds wallets of 0, 2, 100,000 and 1,000,000 events through the event store port,
 *     snapshotting as the wallet's command queue does (the same steps as
 *     test/e2e/wallet-history.e2e.ts, in appends of 5,000 events), then times
 *     AggregateStore.load with walletSnapshots for each;
 *  6. WalletService.replay of the 1,000,000-event wallet (every event from revision 0, folded
 *     with the decider's evolve) and `projections:rebuild` (ProjectionsService.rebuild in the
 *     compiled application context, process managers off) over the whole log.
 * Prints one JSON line.
 */
require('reflect-metadata');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');

const dist = join(__dirname, '..', 'dist');
const { SqliteEventStore } = require(join(dist, 'shared/event-store/sqlite/sqlite-event-store.adapter'));
const { AggregateStore } = require(join(dist, 'shared/event-store/aggregate-store'));
const { fold } = require(join(dist, 'shared/decider'));
const { walletDecider, walletSnapshots, smsLeft } = require(join(dist, 'wallet/domain/wallet.decider'));
const { walletStream } = require(join(dist, 'wallet/domain/wallet.events'));
const { WalletService } = require(join(dist, 'wallet/application/wallet.service'));
const { systemClock } = require(join(dist, 'shared/clock'));

const BATCH = 5000;

async function seed(store, aggregates, walletId, total) {
  const stream = walletStream(walletId);
  const at = new Date().toISOString();
  const opening = [
    { type: 'WalletOpened', data: { walletId, accountId: 'acct_bench', environment: 'TEST', openedAt: at } },
    { type: 'CreditsAdded', data: { sourceId: 'seed', source: 'operator_grant', sms: total, reason: 'seed', addedAt: at } },
  ];
  let state = fold(walletDecider, opening);
  let revision = (await store.append(stream, opening, 'no_stream')).nextExpectedRevision;
  for (let n = 2; n < total; ) {
    const chunk = [];
    for (; chunk.length < BATCH && n < total; n += 2) {
      chunk.push({ type: 'CreditsReserved', data: { messageId: `msg_${n}`, sms: 1, reservedAt: at } });
      chunk.push({ type: 'ReservationCaptured', data: { messageId: `msg_${n}`, sms: 1 } });
    }
    state = fold(walletDecider, chunk, state);
    const appended = await store.append(stream, chunk, revision);
    await aggregates.maybeSnapshot(stream, state, revision, appended.nextExpectedRevision, walletSnapshots);
    revision = appended.nextExpectedRevision;
  }
}

/**
 * Times `iterations` loads of each wallet, taking the wallets in turn, so that a slow moment of
 * the machine (these are tens of microseconds) falls on all of them alike, not on one.
 */
async function timeLoads(aggregates, walletIds, iterations) {
  const load = (walletId) => aggregates.load(walletStream(walletId), walletDecider, walletSnapshots);
  for (let i = 0; i < 20; i++) for (const walletId of walletIds) await load(walletId); // warm up
  const times = new Map(walletIds.map((id) => [id, []]));
  const loaded = new Map();
  for (let i = 0; i < iterations; i++) {
    for (const walletId of walletIds) {
      const started = performance.now();
      loaded.set(walletId, await load(walletId));
      times.get(walletId).push(performance.now() - started);
    }
  }
  return new Map(
    walletIds.map((walletId) => {
      const sorted = times.get(walletId).sort((a, b) => a - b);
      const last = loaded.get(walletId);
      return [
        walletId,
        {
          median_ms: round(sorted[Math.floor(sorted.length / 2)]),
          p99_ms: round(sorted[Math.floor(sorted.length * 0.99)]),
          revision: Number(last.revision),
          sms_left: smsLeft(last.state),
        },
      ];
    }),
  );
}

const LOAD_ITERATIONS = 1000;
const round = (x, digits = 3) => Number(x.toFixed(digits));

async function main() {
  const dataDir = process.argv[2];
  const store = new SqliteEventStore(join(dataDir, 'events.db'));
  const aggregates = new AggregateStore(store);
  const result = { seed: {}, load: {}, replay: null, rebuild: null };

  const sizes = { wal_empty: 0, wal_fresh: 2, wal_100k: 100_000, wal_1m: 1_000_000 };
  for (const [walletId, total] of Object.entries(sizes)) {
    if (total === 0) continue;
    const started = performance.now();
    await seed(store, aggregates, walletId, total);
    const ms = performance.now() - started;
    result.seed[walletId] = { events: total, ms: Math.round(ms), events_per_s: Math.round(total / (ms / 1000)) };
  }
  const loads = await timeLoads(aggregates, Object.keys(sizes), LOAD_ITERATIONS);
  for (const [walletId, total] of Object.entries(sizes)) {
    result.load[walletId] = { events: total, ...loads.get(walletId) };
  }

  // wallet:replay's core: WalletService.replay folds every event from revision 0.
  const wallets = new WalletService(store, aggregates, systemClock, { threadRole: 'all' }, null);
  {
    const started = performance.now();
    const replayed = await wallets.replay('wal_1m');
    const ms = performance.now() - started;
    result.replay = {
      events: replayed.events,
      ms: Math.round(ms),
      events_per_s: Math.round(replayed.events / (ms / 1000)),
      sms_left: smsLeft(replayed.wallet),
    };
  }
  const head = Number(await store.headPosition());
  await store.close();

  // projections:rebuild exactly as the CLI runs it: the application context on this DATA_DIR.
  process.env.DATA_DIR = dataDir;
  process.env.RUN_PROCESS_MANAGERS = 'false';
  process.env.BACKGROUND_THREADS = 'off';
  const { NestFactory } = require('@nestjs/core');
  const { AppModule } = require(join(dist, 'app.module'));
  const { ProjectionsService } = require(join(dist, 'shared/projections/projections.service'));
  const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error'] });
  await app.init();
  try {
    const projections = app.get(ProjectionsService);
    const started = performance.now();
    await projections.rebuild();
    const ms = performance.now() - started;
    result.rebuild = {
      events: head,
      ms: Math.round(ms),
      events_per_s: Math.round(head / (ms / 1000)),
      projections: projections.projections().filter((p) => p.kind !== 'process-manager').map((p) => p.name),
    };
  } finally {
    await app.close();
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
