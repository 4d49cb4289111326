import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  countBy,
  deliveredCreditsByWallet,
  isFinished,
  killAllStarted,
  messageHistories,
  ProcMerchant,
  provisionMerchants,
  readEvents,
  readSubmissions,
  replayWallets,
  ensureBuilt,
  ServerProcess,
  startLoad,
  startServer,
  until,
} from '../support/server-process';
import { embeddedStoreOnly } from '../support/engines';
import { openReservationsIn } from '../support/wallet-settlements';

/**
 * Recovery in seconds, not leases: every server process records a heartbeat, its dispatch
 * leases and reservations name its instance, and the work of an instance whose heartbeat
 * stopped is taken over at once. These runs keep the production lease (DISPATCH_LEASE_MS, 15 s)
 * and orphan grace (ORPHAN_RESERVATION_GRACE_MS, 2 min): recovering within the 10 s
 * bound is only possible through the heartbeats. Each run has its own data directory and
 * wallets of 100 credits (the TEST opening grant), so a wallet's credits must end at exactly
 * 100 minus its delivered messages.
 */
jest.setTimeout(240_000);
const { it, beforeAll } = embeddedStoreOnly(
  'fast recovery kills SQLite servers and reads the record (events.db, read.db) itself',
);

/** The bound: from the restart (or the kill, for a survivor), everything is settled within this. */
const RECOVERY_BOUND_MS = 10_000;

const dataDirs: string[] = [];
// The server as `npm start` runs it (dist/main.js): under ts-node each of its threads compiles
// the whole app at start, and the worker thread would come up many seconds after the HTTP one.
beforeAll(() => ensureBuilt(), 180_000);
afterAll(async () => {
  await killAllStarted();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

async function freshStore(tag: string): Promise<{ dataDir: string; env: Record<string, string> }> {
  const dataDir = mkdtempSync(join(tmpdir(), `sms-wallet-${tag}-`));
  dataDirs.push(dataDir);
  return {
    dataDir,
    env: {
      TEST_DLR_DELAY_MS: '100',
      TEST_CARRIER_SUBMISSION_LOG: join(dataDir, 'carrier-submissions.log'),
      LOG_LEVEL: 'warn',
      // The shared partitions are split within a second of a second process starting.
      DISPATCH_LEASE_RENEW_MS: '500',
    },
  };
}

/** Reservations neither captured nor released, per message id, from the wallet streams. */
function openReservations(dataDir: string): string[] {
  return [...openReservationsIn(readEvents(dataDir, 'wallet'))];
}

/** Polls until every message in the log is final and no reservation is open; answers how long that took from `since`. */
async function settledWithin(dataDir: string, since: number, what: string): Promise<number> {
  await until(
    () => {
      const unfinished = [...messageHistories(dataDir).values()].filter((events) => !isFinished(events));
      return unfinished.length === 0 && openReservations(dataDir).length === 0 ? true : undefined;
    },
    // Polled longer than the bound so that a miss reports how long it really took.
    6 * RECOVERY_BOUND_MS,
    what,
  );
  return Date.now() - since;
}

/** The wallets add up: sms_left = 100 - delivered on the API, and wallet:replay agrees with the read model. */
async function expectCreditsAddUp(dataDir: string, server: ServerProcess, merchants: ProcMerchant[]) {
  const delivered = deliveredCreditsByWallet(dataDir);
  for (const m of merchants) {
    const opening = readEvents(dataDir, 'wallet')
      .filter((e) => e.streamId === `wallet-${m.wallet}` && e.type === 'CreditsAdded')
      .reduce((sum, e) => sum + e.data.sms, 0);
    expect(opening).toBe(100);
    const left = await until(
      async () => {
        const r = await server.request('GET', '/v1/billing', { key: m.testKey });
        return r.body?.sms_left === 100 - (delivered.get(m.wallet) ?? 0) ? r.body.sms_left : undefined;
      },
      30_000,
      `sms_left of ${m.wallet} to be 100 minus its delivered messages`,
    );
    expect(left).toBe(100 - (delivered.get(m.wallet) ?? 0));
  }
  for (const { code, replay } of await replayWallets(
    dataDir,
    merchants.map((m) => m.wallet),
  )) {
    expect({ code, consistent: replay.consistent, reserved: replay.reserved }).toEqual({
      code: 0,
      consistent: true,
      reserved: 0,
    });
    expect(replay.sms_left).toBe(100 - (delivered.get(replay.wallet) ?? 0));
    expect(replay.captured).toBe(delivered.get(replay.wallet) ?? 0);
  }
}

/** At most one MessageSent per message; a message submitted twice was first submitted by a killed process. */
function expectSubmittedOnce(dataDir: string, killedPids: readonly number[]): void {
  const submits = readSubmissions(join(dataDir, 'carrier-submissions.log')).filter(
    (s) => s.kind === 'submit',
  );
  expect([...countBy(submits, (s) => `${s.messageId} ${s.pid}`)].filter(([, n]) => n > 1)).toEqual([]);
  for (const [id, events] of messageHistories(dataDir)) {
    expect({ id, sent: events.filter((e) => e.type === 'MessageSent').length <= 1 }).toEqual({
      id,
      sent: true,
    });
    const submitters = submits.filter((s) => s.messageId === id).map((s) => s.pid);
    for (const earlier of submitters.slice(0, -1))
      expect({ id, earlierWasKilled: killedPids.includes(earlier) }).toEqual({ id, earlierWasKilled: true });
  }
}

/** Every message a client was told about (200) is in the log. */
function expectAcceptedRecorded(dataDir: string, accepted: readonly string[]): void {
  const histories = messageHistories(dataDir);
  for (const id of accepted)
    expect({ id, first: histories.get(id)?.[0]?.type }).toEqual({ id, first: 'MessageQueued' });
}

it('SIGKILL under 16 senders, then a restart: everything final and no credit held within 10 s of the restart', async () => {
  const { dataDir, env } = await freshStore('recover');
  const merchants = await provisionMerchants(dataDir, 2);
  const first = await startServer({ dataDir, env, built: true });
  const load = startLoad(() => [first.baseUrl], merchants, 16);
  await until(() => (load.accepted().length >= 40 ? true : undefined), 60_000, '40 accepted sends');
  await first.kill('SIGKILL');
  await load.stop();
  // Refused connections and cut requests only: no 402, the wallets have credit for every send.
  expect(load.outcomes.filter((o) => o.status !== 200 && o.status !== null)).toEqual([]);

  const second = await startServer({ dataDir, env, built: true });
  const restartedAt = Date.now();
  const took = await settledWithin(dataDir, restartedAt, 'every message final, no reservation open');
  console.log(
    `SIGKILL and restart: ${load.accepted().length} accepted, settled ${took} ms after the restart`,
  );
  expect(took).toBeLessThanOrEqual(RECOVERY_BOUND_MS);

  expectAcceptedRecorded(dataDir, load.accepted());
  expectSubmittedOnce(dataDir, [first.pid]);
  await expectCreditsAddUp(dataDir, second, merchants);
});

it('two processes on one store, one SIGKILLed: the survivor takes its work over within 10 s', async () => {
  const { dataDir, env } = await freshStore('survivor');
  const merchants = await provisionMerchants(dataDir, 2);
  const [doomed, survivor] = await Promise.all([
    startServer({ dataDir, env, built: true }),
    startServer({ dataDir, env, built: true }),
  ]);
  // Both hold dispatch partitions before the kill, so the doomed one has work to hand over.
  await until(
    () => {
      const holders = new Set(
        readEvents(dataDir, 'dispatch')
          .filter((e) => e.type === 'DispatchLeasesRenewed' && e.data.partitions.length > 0)
          .slice(-4)
          .map((e) => e.data.holder),
      );
      return holders.size === 2 ? true : undefined;
    },
    60_000,
    'both processes to hold dispatch partitions',
  );
  const load = startLoad(() => [doomed.baseUrl, survivor.baseUrl], merchants, 16);
  await until(() => (load.accepted().length >= 40 ? true : undefined), 60_000, '40 accepted sends');
  await doomed.kill('SIGKILL');
  const killedAt = Date.now();
  await load.stop();
  expect(load.outcomes.filter((o) => o.status !== 200 && o.status !== null)).toEqual([]);

  const took = await settledWithin(dataDir, killedAt, 'the survivor to finish the killed process’s work');
  console.log(`SIGKILL of one of two: ${load.accepted().length} accepted, settled ${took} ms after the kill`);
  expect(took).toBeLessThanOrEqual(RECOVERY_BOUND_MS);

  expectAcceptedRecorded(dataDir, load.accepted());
  expectSubmittedOnce(dataDir, [doomed.pid]);
  await expectCreditsAddUp(dataDir, survivor, merchants);
});

it('SIGTERM under load: exits 0 within the grace, hands every partition back, leaves no orphan reservation', async () => {
  const { dataDir, env } = await freshStore('drain');
  const merchants = await provisionMerchants(dataDir, 2);
  const server = await startServer({ dataDir, env: { ...env, SHUTDOWN_GRACE_MS: '10000' }, built: true });
  const load = startLoad(() => [server.baseUrl], merchants, 16);
  await until(() => (load.accepted().length >= 40 ? true : undefined), 60_000, '40 accepted sends');
  const signalledAt = Date.now();
  const exit = await server.kill('SIGTERM');
  const stoppedIn = Date.now() - signalledAt;
  await load.stop();
  console.log(`SIGTERM under load: exited ${JSON.stringify(exit)} after ${stoppedIn} ms`);
  expect(exit).toEqual({ code: 0, signal: null });
  expect(stoppedIn).toBeLessThanOrEqual(10_000);
  // Answered, or refused in API.md's 503 shape while draining, or a refused connection: never a 5xx otherwise.
  expect(
    load.outcomes.filter((o) => o.status !== 200 && o.status !== null && !o.refusedWhileClosing),
  ).toEqual([]);
  expectAcceptedRecorded(dataDir, load.accepted());

  // With the server gone: no message is left claimed by it (its last lease renewal holds no
  // partition), every open reservation has its message queued (none is an orphan), and the
  // instance is recorded as stopped, so nothing it made waits for its heartbeat to age.
  const renewals = readEvents(dataDir, 'dispatch').filter((e) => e.type === 'DispatchLeasesRenewed');
  const last = new Map(renewals.map((e) => [e.data.holder as string, e.data.partitions as number[]]));
  expect([...last].filter(([, partitions]) => partitions.length > 0)).toEqual([]);
  const histories = messageHistories(dataDir);
  expect(openReservations(dataDir).filter((id) => histories.get(id)?.[0]?.type !== 'MessageQueued')).toEqual(
    [],
  );
  const db = new Database(join(dataDir, 'read.db'), { readonly: true });
  try {
    const instances = db.prepare('SELECT id, pid, stopped_at FROM instances').all() as Array<{
      id: string;
      pid: number;
      stopped_at: string | null;
    }>;
    expect(instances.filter((i) => i.pid === server.pid).map((i) => i.stopped_at !== null)).toEqual([true]);
    expect([...last.keys()]).toEqual(instances.filter((i) => i.pid === server.pid).map((i) => i.id));
  } finally {
    db.close();
  }

  // Restarted, the rest is dispatched at once: nothing waits for a lease.
  const next = await startServer({ dataDir, env, built: true });
  const took = await settledWithin(dataDir, Date.now(), 'every message final after the restart');
  console.log(`after SIGTERM and restart: settled ${took} ms after the restart`);
  expect(took).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
  expectSubmittedOnce(dataDir, []);
  await expectCreditsAddUp(dataDir, next, merchants);
});
