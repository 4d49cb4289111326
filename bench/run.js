'use strict';
/**
 * `npm run bench`: builds (the npm script does), then measures the service on this machine.
 * Every server is a child process on 127.0.0.1 with a fresh embedded store; the load comes
 * from a second process (bench/load.js, autocannon, or bench/paced-load.js for the paced
 * scenarios). CPU and RSS are the server's whole process tree (bench/proc-tree.js). Prints a
 * table, PASS/FAIL per target, and writes bench/results.json. See docs/performance.md.
 *
 * Options (environment): BENCH_DURATION (seconds per HTTP scenario, default 10),
 * BENCH_CONNECTIONS (64), BENCH_DLR_RATE (sends/s in the OTP scenario, 200),
 * BENCH_DLR_SECONDS (10), BENCH_OTP_WARMUP_SECONDS (3), BENCH_SUSTAINED_SECONDS (the sustained scenario's measured window,
 * 30), BENCH_SKIP_STORE=1 (skip scenarios 5-6), BENCH_SKIP_SUSTAINED=1 (skip scenario 8),
 * BENCH_KEEP=1 (keep the temp data directories), BENCH_CPU_PROF=dir (run the servers under
 * node --cpu-prof), BENCH_SQL_STATS=dir (count each server's SQLite statements, see
  * sql-stats.js), BENCH_ONLY=otp (or dlr), sustained, sends, floor, batch, imports, verify, idle,
 * campaign or hostile (scenario 7, 8, 2-4, 1b, 9, 10, 11, 12, 12-13 or 14, alone), BENCH_BATCHES
 * (measured 1,000-item batches in scenario 9, 9), BENCH_IMPORT_ROWS (rows of scenario 10's CSV,
 * 100,000), BENCH_IDLE_SECONDS (scenario 12's measured window, 20), BENCH_IDLE_SETTLE_SECONDS (how
 * long the fresh server is left alone before it, 40), BENCH_CAMPAIGN_BATCHES (scenario 13's batches
 * of 1,000, 100), BENCH_HOSTILE_SECONDS (each phase of scenario 14, 15), BENCH_AUDIENCE_RECIPIENTS
 * (scenario 15's audience, 100,000). Scenario 14 runs only when
 * asked for (BENCH_ONLY=hostile): it is about what one tenant can do to another, not speed.
 */
const { spawn } = require('node:child_process');
const { mkdtempSync, rmSync, writeFileSync, mkdirSync } = require('node:fs');
const net = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { treeCpuSeconds, treeRssKb, treeThreadRunNs } = require('./proc-tree');
const { settlementCounter, noAcceptedEvents } = require('./settlement');

const ROOT = join(__dirname, '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const DLR_RATE = Number(process.env.BENCH_DLR_RATE ?? 200);
const DLR_SECONDS = Number(process.env.BENCH_DLR_SECONDS ?? 10);
const SUSTAINED_SECONDS = Number(process.env.BENCH_SUSTAINED_SECONDS ?? 30);
/** Seconds the sustained scenario's rate control runs before its measured window. */
const SUSTAINED_WARMUP = 10;
/** The sustained backlog must be gone this long after the load ends; it is watched for up to DRAIN_WATCH_SECONDS. */
const DRAIN_SECONDS = 5;
const DRAIN_WATCH_SECONDS = 20;
const WARMUP = 3;
/** Seconds of sends at the OTP rate before scenario 7 measures (not counted). */
const OTP_WARMUP = Number(process.env.BENCH_OTP_WARMUP_SECONDS ?? 3);
/** Measured batches in scenario 9 (after one warm-up batch); the median is reported. */
const BATCHES = Number(process.env.BENCH_BATCHES ?? 9);
const BATCH_ITEMS = 1000;
/** Rows of the CSV file scenario 10 imports (issue 32's target is for 100,000). */
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
/** Scenario 10: the idle server's measured window, after it was left alone this long. */
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 20);
const IDLE_SETTLE_SECONDS = Number(process.env.BENCH_IDLE_SETTLE_SECONDS ?? 40);
/** Scenario 11: batches of BATCH_ITEMS, sent from CAMPAIGN_CONNECTIONS connections. */
const CAMPAIGN_BATCHES = Number(process.env.BENCH_CAMPAIGN_BATCHES ?? 100);
const CAMPAIGN_CONNECTIONS = 4;
/** Scenario 15: recipients of the campaign to an audience (issue 32's target is for 100,000). */
const AUDIENCE_RECIPIENTS = Number(process.env.BENCH_AUDIENCE_RECIPIENTS ?? 100_000);
/**
 * BENCH_ONLY=otp (or dlr, its old name) runs scenario 7 alone (a quick, steady measure of what
 * one message costs); BENCH_ONLY=sustained runs scenario 8 alone; BENCH_ONLY=sends runs
 * scenarios 2-4 alone (their ratios then have no baseline); BENCH_ONLY=floor runs scenario 1b
  * alone; BENCH_ONLY=batch runs scenario 9 alone; BENCH_ONLY=imports runs scenario 10 alone;
 * BENCH_ONLY=verify runs scenario 11 alone; BENCH_ONLY=idle runs scenario 12 alone and
 * BENCH_ONLY=campaign scenarios 12 and 13 (the campaign's server is measured idle before it);
 * BENCH_ONLY=hostile runs scenario 14; BENCH_ONLY=audience runs scenario 15 alone (a campaign to
 * an audience of contacts, issue 32).
 */
const ONLY = process.env.BENCH_ONLY === 'dlr' ? 'otp' : process.env.BENCH_ONLY;
const SCENARIOS = ['otp', 'sustained', 'sends', 'floor', 'batch', 'imports', 'verify', 'idle', 'campaign', 'hostile', 'audience'];
if (ONLY && !SCENARIOS.includes(ONLY)) throw new Error(`BENCH_ONLY=${ONLY}: expected otp (or dlr), sustained, sends, floor, batch, imports, verify, idle, campaign, hostile or audience`);
if (!(AUDIENCE_RECIPIENTS >= 1 && AUDIENCE_RECIPIENTS <= 100_000)) throw new Error(`BENCH_AUDIENCE_RECIPIENTS=${process.env.BENCH_AUDIENCE_RECIPIENTS}: expected 1 to 100,000 recipients`);
if (!(IMPORT_ROWS >= 1 && IMPORT_ROWS <= 200_000)) throw new Error(`BENCH_IMPORT_ROWS=${process.env.BENCH_IMPORT_ROWS}: expected 1 to 200,000 rows`);
/** Seconds of each phase of scenario 14, and the victim's sends per second in it. */
const HOSTILE_SECONDS = Number(process.env.BENCH_HOSTILE_SECONDS ?? 15);
const VICTIM_RATE = 10;
if (!(BATCHES >= 1)) throw new Error(`BENCH_BATCHES=${process.env.BENCH_BATCHES}: expected a number of batches, at least 1`);
if (!(IDLE_SECONDS >= 1)) throw new Error(`BENCH_IDLE_SECONDS=${process.env.BENCH_IDLE_SECONDS}: expected a number of seconds, at least 1`);
if (!(IDLE_SETTLE_SECONDS >= 0)) throw new Error(`BENCH_IDLE_SETTLE_SECONDS=${process.env.BENCH_IDLE_SETTLE_SECONDS}: expected a number of seconds`);
if (!(CAMPAIGN_BATCHES >= 1)) throw new Error(`BENCH_CAMPAIGN_BATCHES=${process.env.BENCH_CAMPAIGN_BATCHES}: expected a number of batches, at least 1`);
const runs = (name) => !ONLY || ONLY === name;
if (!(SUSTAINED_SECONDS >= 1)) throw new Error(`BENCH_SUSTAINED_SECONDS=${process.env.BENCH_SUSTAINED_SECONDS}: expected a number of seconds, at least 1`);

/** Issue 34's targets: throughput stated as ratios of what the same run measures (scenarios 1 and 1b). */
const TARGETS = {
  sustainedVsBaseline: 0.15,
  burstVsFloor: 0.6,
  burstP99VsFloor: 1.5,
  otpSendP99Ms: 10,
  otpDeliveredP99Ms: 40,
  campaignSettledVsBaseline: 0.1,
  campaignCpuMsPerMessage: 0.3,
  idleCpuMsPerSecond: 5,
  hotVsSpread: 0.8,
  loadVsFresh: 2,
  replayEventsPerS: 100_000,
  rssMb: 300,
  batchAnswerMs: 1000,
  importSeconds: 30,
  audienceAcceptedSeconds: 10,
  verifyCreateP99Ms: 10,
  verifyCheckP99Ms: 5,
  verifyDeliveredP99Ms: 40,
  hostileVictimP99Ms: 100,
};

const tmpRoot = mkdtempSync(join(tmpdir(), 'sms-wallet-bench-'));
const children = new Set();
let serverPeakRssKb = 0;

function log(line) {
  process.stderr.write(`[bench] ${line}\n`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Samples the VmRSS of a process and its descendants every 100 ms; stop() returns the peak in kB. */
function rssSampler(pid, { server = true } = {}) {
  let peak = treeRssKb(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRssKb(pid));
    if (server) serverPeakRssKb = Math.max(serverPeakRssKb, peak);
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, treeRssKb(pid));
      if (server) serverPeakRssKb = Math.max(serverPeakRssKb, peak);
      return peak;
    },
  };
}

function startProcess(args, env, name) {
  const profiling = process.env.BENCH_CPU_PROF ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const sqlStats = process.env.BENCH_SQL_STATS ? ['-r', join(__dirname, 'sql-stats.js')] : [];
  const nodeArgs = [...profiling, ...sqlStats, ...args];
  const child = spawn(process.execPath, nodeArgs, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  child.stdout.on('data', (d) => (output = (output + d).slice(-4000)));
  child.stderr.on('data', (d) => (output = (output + d).slice(-4000)));
  child.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  child.exited.then(() => children.delete(child));
  child.output = () => output;
  child.name = name;
  return child;
}

async function stopProcess(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timeout = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await child.exited;
  clearTimeout(timeout);
}

async function waitForHttp(url, child, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${child.name} exited early:\n${child.output()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${child.name} did not answer ${url} within ${timeoutMs} ms:\n${child.output()}`);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs a node script to completion and parses the last line of its stdout as JSON. */
function runJson(args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    children.add(child);
    child.exited = new Promise((done) => child.on('exit', (code, signal) => done({ code, signal })));
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      children.delete(child);
      const last = out.trim().split('\n').pop();
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}: ${out.slice(-2000)}`));
      try {
        resolve(JSON.parse(last));
      } catch (error) {
        reject(new Error(`${args.join(' ')} printed no JSON: ${out.slice(-2000)}`));
      }
    });
  });
}

/** One run of a load process: load.js (autocannon) or paced-load.js. */
function load(scenario, script = 'load.js') {
  const file = join(tmpRoot, `scenario-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(scenario));
  return runJson([join(__dirname, script), `@${file}`]);
}

/** Load, sampling the server's RSS meanwhile. */
async function measure(serverPid, scenario, { server = true, script } = {}) {
  const sampler = rssSampler(serverPid, { server });
  const result = await load(scenario, script);
  const peakKb = sampler.stop();
  return { ...result, errors: result.non2xx + result.socket_errors + result.timeouts, peak_rss_mb: Math.round(peakKb / 1024) };
}

function serverEnv(port, dataDir, extra = {}) {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    RATE_LIMIT_PER_KEY_RPS: '1000000000',
    RATE_LIMIT_PER_KEY_BURST: '1000000000',
    // The bench sends with TEST keys: their own lower limit and daily quota are not its subject.
    RATE_LIMIT_PER_TEST_KEY_RPS: '1000000000',
    RATE_LIMIT_PER_TEST_KEY_BURST: '1000000000',
    TEST_DAILY_MESSAGE_QUOTA: '0',
    BATCH_ITEMS_PER_WALLET_PER_SECOND: '1000000000',
    BATCH_ITEMS_PER_WALLET_BURST: '1000000000',
    BATCH_ITEMS_PER_TEST_WALLET_PER_SECOND: '1000000000',
    BATCH_ITEMS_PER_TEST_WALLET_BURST: '1000000000',
    LOG_LEVEL: 'error',
    EVENT_STORE_URL: '',
    MONGODB_URL: '',
    ...extra,
  };
}

/**
 * The node flags and the environment of `npm start` (scripts/start-command.js), so the bench runs
 * the server as it is run; a variable already set in the bench's own environment is left as it is
 * (to compare without one).
 */
const startCommand = require('../scripts/start-command');
const START_FLAGS = startCommand.nodeFlags;
const START_ENV = Object.fromEntries(Object.entries(startCommand.env).filter(([name]) => !(name in process.env)));

async function startServer(dataDir, extra = {}) {
  const port = await freePort();
  const child = startProcess([...START_FLAGS, join(ROOT, 'dist/main.js')], serverEnv(port, dataDir, { ...START_ENV, ...extra }), 'server');
  const sampler = rssSampler(child.pid); // also covers boot
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/ready`, child);
  return { child, url, sampler };
}

async function sendsAvailable(url, key) {
  const response = await fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ to: '+233241234567', sender_id: 'BenchShop', message: 'probe', type: 'transactional' }),
  });
  if (response.status === 200) return { ok: true };
  return { ok: false, reason: `POST /v1/messages answered ${response.status}: ${(await response.text()).slice(0, 200)}` };
}

async function seedMerchants(dataDir, count, credits) {
  mkdirSync(dataDir, { recursive: true });
  return runJson([join(__dirname, 'seed.js'), String(count), String(credits)], { ...serverEnv(0, dataDir), DATA_DIR: dataDir });
}

/** How many of { from, to } (recorded_at times; `to` null when not delivered) were delivered, and after how long. */
function deliveredAfter(pairs) {
  const latencies = pairs.filter((p) => p.to).map((p) => Date.parse(p.to) - Date.parse(p.from));
  latencies.sort((a, b) => a - b);
  const pick = (q) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] : null);
  return { delivered: latencies.length, p50_ms: pick(0.5), p99_ms: pick(0.99), max_ms: latencies.at(-1) ?? null };
}

/** Accept-to-DELIVERED from the store: MessageQueued.recorded_at to MessageDelivered.recorded_at. */
function dlrLatencies(dataDir, afterPosition = 0) {
  const Database = require('better-sqlite3');
  const db = new Database(join(dataDir, 'events.db'), { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT q.stream_id AS stream, q.recorded_at AS queued, d.recorded_at AS delivered
           FROM events q LEFT JOIN events d ON d.stream_id = q.stream_id AND d.type = 'MessageDelivered'
          WHERE q.type = 'MessageQueued' AND q.position > ?`,
      )
      .all(afterPosition);
    return { messages: rows.length, ...deliveredAfter(rows.map((r) => ({ from: r.queued, to: r.delivered }))) };
  } finally {
    db.close();
  }
}

/**
 * Waits until `expected` messages are accepted, settled and final (delivered, failed or
 * expired), then until the log has been still for 300 ms (the webhook events that follow);
 * returns the ms that took, or null after timeoutMs.
 */
async function waitForSettlement(dataDir, expected, timeoutMs) {
  const Database = require('better-sqlite3');
  const db = new Database(join(dataDir, 'events.db'), { readonly: true });
  const counter = settlementCounter(dataDir);
  const started = Date.now();
  try {
    const finals = db.prepare(`SELECT count(*) AS n FROM events WHERE type IN ('MessageDelivered', 'MessageFailed', 'MessageExpired')`);
    const head = db.prepare('SELECT max(position) AS p FROM events');
    let settledAt = null;
    let still = { head: null, since: 0 };
    while (Date.now() - started < timeoutMs) {
      if (settledAt === null) {
        const { accepted, backlog } = counter.read();
        if (accepted >= expected && backlog === 0 && finals.get().n >= expected) settledAt = Date.now();
      } else {
        const now = head.get().p;
        if (now !== still.head) still = { head: now, since: Date.now() };
        else if (Date.now() - still.since >= 300) return settledAt - started;
      }
      await sleep(50);
    }
    if (counter.read().accepted === 0) throw new Error(noAcceptedEvents(expected));
    return null;
  } finally {
    counter.close();
    db.close();
  }
}

/**
 * Seeds `merchants` TEST merchants in dataDir, starts a server on it and runs
 * scenario(server, keys) if it accepts a send; stops the server either way. Returns what the
 * scenario returns, or { skipped } with the reason sends are refused.
 */
async function onOwnServer(dataDir, merchants, env, scenario) {
  log(`seeding ${merchants} merchants`);
  const seeded = await seedMerchants(dataDir, merchants, 1_000_000);
  const server = await startServer(dataDir, env);
  try {
    const probe = await sendsAvailable(server.url, seeded.keys[0]);
    if (!probe.ok) {
      log(`skipped: ${probe.reason}`);
      return { skipped: probe.reason };
    }
    return await scenario(server, seeded.keys);
  } finally {
    server.sampler.stop();
    await stopProcess(server.child);
  }
}

/**
 * 7. OTP latency: sends at a steady DLR_RATE from 16 connections to a server with
 * TEST_DLR_DELAY_MS=0; send latency from the client, accept to DELIVERED from the store, and
 * the CPU of the server's process tree per message once everything has settled.
 */
function otpLatency() {
  const dataDir = join(tmpRoot, 'otp');
  return onOwnServer(dataDir, 10, { TEST_DLR_DELAY_MS: '0' }, async (server, keys) => {
    log(`7/8 OTP latency: ${OTP_WARMUP} s of warm-up, then ${DLR_RATE} sends/s for ${DLR_SECONDS} s from 16 connections, TEST_DLR_DELAY_MS=0`);
    const paced = (seconds) => ({ url: server.url, mode: 'fixed', keys, connections: 16, rate: DLR_RATE, amount: DLR_RATE * seconds });
    // The first seconds of a fresh server compile its hot paths (V8's optimising compiler runs on
    // threads of the process): measured alone, as the cold cost, then the steady state.
    const cpuCold = treeCpuSeconds(server.child.pid);
    const warm = await measure(server.child.pid, paced(OTP_WARMUP), { script: 'paced-load.js' });
    await waitForSettlement(dataDir, warm.ok + 1, 30_000);
    const after = logHead(dataDir);
    const cpuBefore = treeCpuSeconds(server.child.pid);
    const sends = await measure(server.child.pid, paced(DLR_SECONDS), { script: 'paced-load.js' });
    // Everything the server does for these messages, request to settlement.
    const settleMs = await waitForSettlement(dataDir, warm.ok + 1 + sends.ok, 30_000);
    const cpuAfter = treeCpuSeconds(server.child.pid);
    const perMessage = (from, to, n) => (from === null || to === null || n === 0 ? null : Math.round(((to - from) * 1e5) / n) / 100);
    return {
      rate: DLR_RATE,
      connections: 16,
      sends,
      settled_after_load_ms: settleMs,
      cpu_ms_per_message: perMessage(cpuBefore, cpuAfter, sends.ok),
      warmup: { seconds: OTP_WARMUP, sends: warm.ok, cpu_ms_per_message: perMessage(cpuCold, cpuBefore, warm.ok + 1) },
      ...dlrLatencies(dataDir, after),
    };
  });
}

/** The position of the newest event in a server's log. */
function logHead(dataDir) {
  const Database = require('better-sqlite3');
  const db = new Database(join(dataDir, 'events.db'), { readonly: true });
  try {
    return db.prepare('SELECT max(position) AS p FROM events').get().p ?? 0;
  } finally {
    db.close();
  }
}

/**
 * 8. Sustained: sends for SUSTAINED_SECONDS at the rate the service settles, found by the
 * controller in paced-load.js after SUSTAINED_WARMUP seconds of ramping, on a server with
 * TEST_DLR_DELAY_MS=0 and 100 wallets; then the backlog DRAIN_SECONDS after the load.
 */
function sustained() {
  const dataDir = join(tmpRoot, 'sustained');
  return onOwnServer(dataDir, 100, { TEST_DLR_DELAY_MS: '0' }, async (server, keys) => {
    log(`8/8 sustained: ${SUSTAINED_WARMUP} s of rate control, then ${SUSTAINED_SECONDS} s measured at the rate the service settles, ${CONNECTIONS} connections`);
    return measure(
      server.child.pid,
      {
        url: server.url,
        mode: 'settle',
        keys,
        connections: CONNECTIONS,
        startRate: 200,
        warmup: SUSTAINED_WARMUP,
        window: SUSTAINED_SECONDS,
        observe: DRAIN_SECONDS,
        drainMax: DRAIN_WATCH_SECONDS,
        dataDir,
        serverPid: server.child.pid,
      },
      { script: 'paced-load.js' },
    );
  });
}

/**
 * 1b. The floor (bench/floor-app.js): NestJS, the service's send DTO and validation pipe and one
 * durable commit of two rows, nothing else. Sends at CONNECTIONS as scenario 2, then paced at
 * DLR_RATE as scenario 7 with the CPU of its process per request: what the stack alone costs,
 * against which the burst and CPU targets are read.
 */
async function floor() {
  log('1b/8 floor: NestJS + the send DTO and pipe + one durable commit a request');
  const dataDir = join(tmpRoot, 'floor');
  mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  const child = startProcess([...START_FLAGS, join(__dirname, 'floor-app.js')], { ...START_ENV, PORT: String(port), DATA_DIR: dataDir }, 'floor');
  const url = `http://127.0.0.1:${port}`;
  const keys = ['floor'];
  try {
    await waitForHttp(`${url}/v1/ready`, child);
    await load({ url, kind: 'sends', keys, connections: CONNECTIONS, duration: WARMUP });
    const burst = await measure(child.pid, { url, kind: 'sends', keys, connections: CONNECTIONS, duration: DURATION }, { server: false });
    delete burst.ids;
    const paced = (seconds) => ({ url, mode: 'fixed', keys, connections: 16, rate: DLR_RATE, amount: DLR_RATE * seconds });
    await load(paced(OTP_WARMUP), 'paced-load.js');
    const cpuBefore = treeCpuSeconds(child.pid);
    const steady = await load(paced(DLR_SECONDS), 'paced-load.js');
    const cpuAfter = treeCpuSeconds(child.pid);
    const cpuMs = steady.ok && cpuBefore !== null && cpuAfter !== null ? Math.round(((cpuAfter - cpuBefore) * 1e5) / steady.ok) / 100 : null;
    return { ...burst, paced: { rate: DLR_RATE, ok: steady.ok, p50_ms: steady.p50_ms, p99_ms: steady.p99_ms, cpu_ms_per_request: cpuMs } };
  } finally {
    await stopProcess(child);
  }
}

/**
 * The body of the b-th batch of BATCH_ITEMS (scenarios 9 and 11): distinct MTN numbers from
 * batch to batch, one segment each, about 51 KiB.
 */
function batchBody(b) {
  return JSON.stringify({
    sender_id: 'BenchShop',
    type: 'transactional',
    messages: Array.from({ length: BATCH_ITEMS }, (_, i) => ({
      to: `+23324${String(1000000 + ((b * BATCH_ITEMS + i) % 9000000)).padStart(7, '0')}`,
      message: `Your code is ${(b * BATCH_ITEMS + i) % 1000000}`,
    })),
  });
}

/**
 * 9. Batch send: POST /v1/messages/batch with 1,000 items (distinct MTN numbers, one segment
 * each) on its own server, one at a time; each waits for the previous batch's messages to be
 * settled (TEST_DLR_DELAY_MS=0), so every answer is timed on a server with no backlog. Reports
 * the median answer time of BATCHES batches after one warm-up batch, and messages per second.
 */
function batchSend() {
  const dataDir = join(tmpRoot, 'batch');
  return onOwnServer(dataDir, 1, { TEST_DLR_DELAY_MS: '0' }, async (server, keys) => {
    log(`9 batch: 1 warm-up + ${BATCHES} batches of ${BATCH_ITEMS} items, one at a time, each after the previous one settled`);
    const timings = [];
    let settledMessages = 1; // the probe
    for (let b = 0; b <= BATCHES; b++) {
      const payload = batchBody(b);
      const started = process.hrtime.bigint();
      const response = await fetch(`${server.url}/v1/messages/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${keys[0]}` },
        body: payload,
      });
      const answer = await response.json();
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (response.status !== 200 || answer.accepted !== BATCH_ITEMS) {
        throw new Error(`batch ${b} answered ${response.status}: ${JSON.stringify(answer).slice(0, 300)}`);
      }
      if (b > 0) timings.push(ms);
      settledMessages += BATCH_ITEMS;
      const settleMs = await waitForSettlement(dataDir, settledMessages, 60_000);
      if (settleMs === null) throw new Error(`batch ${b}: its messages were not settled within 60 s`);
    }
    const sorted = [...timings].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    const round = (x) => Math.round(x * 10) / 10;
    return {
      items: BATCH_ITEMS,
      batches: BATCHES,
      body_kb: Math.round(Buffer.byteLength(batchBody(0)) / 1024),
      median_ms: round(median),
      min_ms: round(sorted[0]),
      max_ms: round(sorted[sorted.length - 1]),
      messages_per_s: Math.round((BATCH_ITEMS * 1000) / median),
    };
  });
}

/**
 * 10. Contact import: a dedicated server and one wallet; a CSV of IMPORT_ROWS rows (distinct MTN
 * numbers written the local way, 0241234567, read with default_country=GH; a name and three
 * fields) posted to POST /v1/contact_imports?group=…, timed from the request to the import's
 * `completed` (which the job records only once the read models list every contact), with the
 * server's peak RSS over that window. Then the same file again: it must change nothing.
 */
function contactImport() {
  const dataDir = join(tmpRoot, 'imports');
  return onOwnServer(dataDir, 1, {}, async (server, keys) => {
    const headers = { authorization: `Bearer ${keys[0]}` };
    const group = await (
      await fetch(`${server.url}/v1/groups`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Bench parents' }),
      })
    ).json();
    const file = contactsCsv(IMPORT_ROWS);
    const once = async (label) => {
      const sampler = rssSampler(server.child.pid);
      const cpuBefore = treeCpuSeconds(server.child.pid);
      const started = process.hrtime.bigint();
      const response = await fetch(`${server.url}/v1/contact_imports?group=${group.id}&default_country=GH`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'text/csv' },
        body: file,
      });
      const accepted = await response.json();
      const acceptedMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (response.status !== 202) throw new Error(`${label} import answered ${response.status}: ${JSON.stringify(accepted).slice(0, 300)}`);
      let done;
      for (;;) {
        done = await (await fetch(`${server.url}/v1/contact_imports/${accepted.id}`, { headers })).json();
        if (done.status !== 'processing') break;
        if (Number(process.hrtime.bigint() - started) / 1e9 > 600) throw new Error(`${label} import not done in 600 s: ${JSON.stringify(done)}`);
        await sleep(100);
      }
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const cpuSeconds = treeCpuSeconds(server.child.pid) - cpuBefore;
      const peakKb = sampler.stop();
      if (done.status !== 'completed') throw new Error(`${label} import ended ${done.status}: ${JSON.stringify(done).slice(0, 500)}`);
      log(`10 ${label} import of ${IMPORT_ROWS} rows: accepted in ${Math.round(acceptedMs)} ms, completed in ${seconds.toFixed(1)} s with ${cpuSeconds.toFixed(1)} s of server CPU (created ${done.created}, updated ${done.updated}, ${done.errors_count} errors), peak RSS ${Math.round(peakKb / 1024)} MB`);
      return { accepted_ms: Math.round(acceptedMs), seconds: Math.round(seconds * 10) / 10, cpu_s: Math.round(cpuSeconds * 10) / 10, created: done.created, updated: done.updated, errors: done.errors_count, peak_rss_mb: Math.round(peakKb / 1024) };
    };
    log(`10 contact import: ${IMPORT_ROWS} rows (${Math.round(file.length / 1024)} KiB) into a group, then the same file again`);
    const first = await once('first');
    const again = await once('repeated');
    const listed = await (await fetch(`${server.url}/v1/groups/${group.id}`, { headers })).json();
    return { rows: IMPORT_ROWS, file_kb: Math.round(file.length / 1024), first, again, group_contacts: listed.contacts };
  });
}

/**
 * Verify's create-to-DELIVERED from the store: VerificationStarted.recorded_at to the
 * MessageDelivered of the SMS it names, per verification started after `afterPosition`.
 */
function verifyLatencies(dataDir, afterPosition) {
  const Database = require('better-sqlite3');
  const db = new Database(join(dataDir, 'events.db'), { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT v.recorded_at AS started, d.recorded_at AS delivered
           FROM events v LEFT JOIN events d
             ON d.stream_id = 'message-' || json_extract(v.data, '$.messageId') AND d.type = 'MessageDelivered'
          WHERE v.type = 'VerificationStarted' AND v.position > ?`,
      )
      .all(afterPosition);
    return { verifications: rows.length, ...deliveredAfter(rows.map((r) => ({ from: r.started, to: r.delivered }))) };
  } finally {
    db.close();
  }
}

/**
 * 11. Verify: a dedicated server with TEST_DLR_DELAY_MS=0 and 10 wallets (the fraud guard's range
 * and wallet caps off: the load's numbers are distinct but share ranges), OTP_WARMUP seconds of
 * creates as a warm-up, then DLR_RATE creates/s for DLR_SECONDS from 16 connections (client
 * latency; create to DELIVERED from the store), then the same rate of checks of those codes
 * (each approves its verification).
 */
function verify() {
  const dataDir = join(tmpRoot, 'verify');
  const env = { TEST_DLR_DELAY_MS: '0', VERIFY_LIMIT_PER_RANGE_PER_HOUR: '0', VERIFY_LIMIT_PER_WALLET_PER_HOUR: '0' };
  return onOwnServer(dataDir, 10, env, async (server, keys) => {
    log(`11 verify: ${OTP_WARMUP} s of warm-up, then ${DLR_RATE} creates/s for ${DLR_SECONDS} s, then as many checks at that rate, 16 connections, TEST_DLR_DELAY_MS=0`);
    const paced = (request, seconds, extra = {}) => ({ url: server.url, mode: 'fixed', request, keys, connections: 16, rate: DLR_RATE, amount: DLR_RATE * seconds, ...extra });
    const warm = await measure(server.child.pid, paced('verify-create', OTP_WARMUP, { collect: true }), { script: 'paced-load.js' });
    await measure(server.child.pid, paced('verify-check', OTP_WARMUP, { checks: warm.collected }), { script: 'paced-load.js' });
    await waitForSettlement(dataDir, warm.ok + 1, 30_000);
    const after = logHead(dataDir);
    const cpuBefore = treeCpuSeconds(server.child.pid);
    const creates = await measure(server.child.pid, paced('verify-create', DLR_SECONDS, { collect: true }), { script: 'paced-load.js' });
    const checks = creates.collected;
    delete creates.collected;
    delete warm.collected;
    await waitForSettlement(dataDir, warm.ok + 1 + creates.ok, 30_000);
    const checked = await measure(server.child.pid, paced('verify-check', DLR_SECONDS, { checks, amount: checks.length }), { script: 'paced-load.js' });
    // Everything one verification costs the server: create, SMS to settlement, check, read models, webhooks' process.
    await waitForSettlement(dataDir, warm.ok + 1 + creates.ok, 30_000);
    const cpuAfter = treeCpuSeconds(server.child.pid);
    const cpuMs = cpuBefore === null || cpuAfter === null || creates.ok === 0 ? null : Math.round(((cpuAfter - cpuBefore) * 1e5) / creates.ok) / 100;
    return { rate: DLR_RATE, connections: 16, creates, checks: checked, cpu_ms_per_verification: cpuMs, ...verifyLatencies(dataDir, after) };
  });
}

/**
 * 12. Idle: what the server costs doing nothing. Once its one probe send has settled, it is left
 * alone for IDLE_SETTLE_SECONDS: start-up's compiling and V8's heap-shrinking collections after it
 * (the memory reducer's, some 10-40 s after start) die down. Then the CPU its process tree runs
 * over IDLE_SECONDS, per second: the kernel's per-thread run times in nanoseconds
 * (/proc/.../schedstat), where the 10 ms ticks of utime and stime would blur a figure of a few
 * milliseconds a second. Each second's figure is kept too, so that a lone collection shows.
 */
async function idleCpu(server, dataDir) {
  log(`12 idle: ${IDLE_SETTLE_SECONDS} s left alone after start-up, then ${IDLE_SECONDS} s measured`);
  if ((await waitForSettlement(dataDir, 1, 30_000)) === null) throw new Error('the probe send did not settle within 30 s');
  await sleep(IDLE_SETTLE_SECONDS * 1000);
  const total = (threads) => [...threads.values()].reduce((sum, ns) => sum + ns, 0);
  const before = treeThreadRunNs(server.child.pid);
  const started = process.hrtime.bigint();
  const seconds = [];
  let previous = total(before);
  for (let i = 0; i < IDLE_SECONDS; i++) {
    await sleep(1000);
    const now = total(treeThreadRunNs(server.child.pid));
    seconds.push(Math.round((now - previous) / 1e4) / 100);
    previous = now;
  }
  const after = treeThreadRunNs(server.child.pid);
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  const perThread = {};
  let totalNs = 0;
  for (const [thread, ns] of after) {
    const ran = ns - (before.get(thread) ?? 0);
    totalNs += ran;
    if (ran > 0) perThread[thread] = Math.round(ran / 1e4 / elapsed) / 100;
  }
  return {
    settle_s: IDLE_SETTLE_SECONDS,
    seconds: Math.round(elapsed * 10) / 10,
    cpu_ms_per_s: Math.round(totalNs / 1e4 / elapsed) / 100,
    // ms of CPU in each second of the window (a start-up collection shows as one high second).
    per_second: seconds,
    // By pid/tid, ms a second: the HTTP thread is the server's pid, the worker and checkpointer
    // threads and V8's and libuv's helpers are other tids of it.
    threads: perThread,
  };
}

/** Scenario 10 alone: a fresh server with one merchant, measured idle. */
function idle() {
  const dataDir = join(tmpRoot, 'idle');
  return onOwnServer(dataDir, 1, { TEST_DLR_DELAY_MS: '0' }, (server) => idleCpu(server, dataDir));
}

/**
 * 13. Campaign: CAMPAIGN_BATCHES batches of 1,000 messages (distinct MTN numbers, one segment each)
 * on one wallet, from 4 keep-alive connections, each sending its next batch as soon as its last
 * is answered, on a server with TEST_DLR_DELAY_MS=0 measured idle first (scenario 12). Timed from
 * the first request: until the last batch is answered (accepted/s) and until every message is
 * final and its reservation settled (settled/s); the CPU of the server's process tree over that
 * whole time per message, and its peak RSS.
 */
function campaign({ measureIdle }) {
  const dataDir = join(tmpRoot, 'campaign');
  return onOwnServer(dataDir, 1, { TEST_DLR_DELAY_MS: '0' }, async (server, keys) => {
    const idleResult = measureIdle ? await idleCpu(server, dataDir) : null;
    const total = CAMPAIGN_BATCHES * BATCH_ITEMS;
    log(`13 campaign: ${CAMPAIGN_BATCHES} batches of ${BATCH_ITEMS} (${total} messages) on one wallet from ${CAMPAIGN_CONNECTIONS} connections, until every message is settled`);
    const http = require('node:http');
    const agent = new http.Agent({ keepAlive: true, maxSockets: CAMPAIGN_CONNECTIONS });
    const { hostname, port } = new URL(server.url);
    // 100,000 distinct numbers: 024 1000000 to 024 1099999 for the default 100 batches.
    const bodies = Array.from({ length: CAMPAIGN_BATCHES }, (_, b) => batchBody(b));
    const post = (payload) =>
      new Promise((resolve, reject) => {
        const request = http.request(
          {
            agent,
            host: hostname,
            port,
            method: 'POST',
            path: '/v1/messages/batch',
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), authorization: `Bearer ${keys[0]}` },
          },
          (response) => {
            const chunks = [];
            response.on('data', (chunk) => chunks.push(chunk));
            response.on('end', () => resolve({ status: response.statusCode, text: Buffer.concat(chunks).toString() }));
            response.on('error', reject);
          },
        );
        request.on('error', reject);
        request.end(payload);
      });
    const counter = settlementCounter(dataDir, { finals: true });
    const base = counter.read(); // the probe (and, with the idle scenario, nothing else)
    const sampler = rssSampler(server.child.pid);
    const cpuStart = treeCpuSeconds(server.child.pid);
    const started = Date.now();
    let next = 0;
    let accepted = 0;
    const answerMs = [];
    const sender = async () => {
      while (next < CAMPAIGN_BATCHES) {
        const b = next++;
        const sent = Date.now();
        const { status, text } = await post(bodies[b]);
        answerMs.push(Date.now() - sent);
        const answer = JSON.parse(text);
        if (status !== 200) throw new Error(`campaign batch ${b} answered ${status}: ${text.slice(0, 300)}`);
        accepted += answer.accepted;
      }
    };
    try {
      await Promise.all(Array.from({ length: CAMPAIGN_CONNECTIONS }, sender));
      const acceptedMs = Date.now() - started;
      const backlogAtAnswer = counter.read();
      let settledMs = null;
      const deadline = Date.now() + 600_000;
      while (Date.now() < deadline) {
        const now = counter.read();
        if (now.accepted - base.accepted >= accepted && now.backlog === 0 && now.finals - base.finals >= accepted) {
          settledMs = Date.now() - started;
          break;
        }
        await sleep(100);
      }
      const cpuEnd = treeCpuSeconds(server.child.pid);
      const peakKb = sampler.stop();
      if (settledMs === null) throw new Error(`campaign: not every message settled within 10 minutes of the last answer (${JSON.stringify(counter.read())})`);
      answerMs.sort((a, b) => a - b);
      return {
        idle: idleResult,
        batches: CAMPAIGN_BATCHES,
        items: BATCH_ITEMS,
        connections: CAMPAIGN_CONNECTIONS,
        messages: accepted,
        refused: total - accepted,
        accepted_s: Math.round(acceptedMs / 100) / 10,
        settled_s: Math.round(settledMs / 100) / 10,
        accepted_per_s: Math.round((accepted * 1000) / acceptedMs),
        settled_per_s: Math.round((accepted * 1000) / settledMs),
        unsettled_at_last_answer: backlogAtAnswer.accepted - base.accepted - (backlogAtAnswer.settled - base.settled),
        batch_answer_ms: { p50: answerMs[Math.floor(answerMs.length / 2)], max: answerMs.at(-1) },
        cpu_ms_per_message: cpuStart === null || cpuEnd === null ? null : Math.round(((cpuEnd - cpuStart) * 1e5) / accepted) / 100,
        peak_rss_mb: Math.round(peakKb / 1024),
      };
    } finally {
      sampler.stop();
      counter.close();
      agent.destroy();
    }
  });
}

/** The limits a free TEST key and its wallet have by default: the attacker's in scenario 14. */
const DEFAULT_LIMITS = {
  RATE_LIMIT_PER_KEY_RPS: '200',
  RATE_LIMIT_PER_KEY_BURST: '500',
  RATE_LIMIT_PER_TEST_KEY_RPS: '20',
  RATE_LIMIT_PER_TEST_KEY_BURST: '50',
  TEST_DAILY_MESSAGE_QUOTA: '1000',
  BATCH_ITEMS_PER_WALLET_PER_SECOND: '2000',
  BATCH_ITEMS_PER_WALLET_BURST: '10000',
  BATCH_ITEMS_PER_TEST_WALLET_PER_SECOND: '200',
  BATCH_ITEMS_PER_TEST_WALLET_BURST: '1000',
};

/**
 * 14. Hostile tenant (issue 28): one merchant (the victim) sends VICTIM_RATE single messages a
 * second while another, with a free TEST key and the default limits, sends its worst bodies at
 * its rate limit (20 a second, at most 8 at once): 2 MiB batches of one item with ~240,000 keys
 * or nested a million deep (`shape`); batches of 1,000 refused items (`refused`); the same 2 MiB
 * with an unknown key, and 6 MiB console forms without a session (`unauthenticated`). Each
 * phase on a fresh server (a jammed one would spoil the next), warmed up by a third merchant
 * (bench/hostile-load.js, warmUp); then 30 uploads of each
 * unauthenticated body stalled at 90% (`slow`: the memory they hold, whether the server closes
 * them), and each body once on an idle server (`costs`: answer time and server CPU).
 */
async function hostile() {
  const phases = {};
  const phase = (name, attack) =>
    onOwnServer(join(tmpRoot, `hostile-${name}`), 3, DEFAULT_LIMITS, async (server, keys) => {
      log(`14 hostile, ${name}: ${attack ? JSON.stringify(attack) : 'the victim alone'}, ${HOSTILE_SECONDS} s`);
      const common = { url: server.url, seconds: HOSTILE_SECONDS, serverPid: server.child.pid };
      if (attack?.kind !== 'costs') await load({ url: server.url, warmUp: { key: keys[2] } }, 'hostile-load.js');
      const attacking = attack && load({ ...common, attack: { ...attack, key: keys[0] } }, 'hostile-load.js');
      if (attack && !attack.rate) return attacking; // slow, costs: no victim
      const [victim, attackResult] = await Promise.all([
        load({ ...common, victim: { key: keys[1], rate: VICTIM_RATE } }, 'hostile-load.js'),
        attacking,
      ]);
      return { ...victim, ...attackResult };
    }).then((result) => {
      log(`14 hostile, ${name}: ${JSON.stringify(result)}`);
      return result;
    });
  phases.idle = await phase('idle', null);
  phases.shape = await phase('shape', { kind: 'shape', rate: 20, concurrency: 8 });
  phases.refused = await phase('refused', { kind: 'refused', rate: 20, concurrency: 8 });
  phases.unauthenticated = await phase('unauthenticated', { kind: 'unauthenticated', rate: 20, concurrency: 8 });
  phases.slow = (await phase('slow', { kind: 'slow', uploads: 30 })).slow;
  phases.costs = (await phase('costs', { kind: 'costs' })).costs;
  return phases;
}

/** A CSV of `rows` contacts: distinct MTN numbers written the local way, a name and three fields. */
function contactsCsv(rows) {
  const classes = ['JSS 1', 'JSS 2', 'JSS 3', 'SHS 1', 'SHS 2', 'SHS 3'];
  const lines = ['phone_number,name,first_name,class,school'];
  for (let i = 0; i < rows; i++) {
    const first = `Ama${i % 997}`;
    lines.push(`024${String(1_000_000 + i).padStart(7, '0')},${first} Mensah${i % 101},${first},${classes[i % classes.length]},"Accra Academy, Bubuashie"`);
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** Imports a CSV into a new group and waits for it to complete; answers the group. */
async function importedGroup(server, headers, file, name) {
  const group = await (
    await fetch(`${server.url}/v1/groups`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ name }) })
  ).json();
  const accepted = await (
    await fetch(`${server.url}/v1/contact_imports?group=${group.id}&default_country=GH`, { method: 'POST', headers: { ...headers, 'content-type': 'text/csv' }, body: file })
  ).json();
  for (const started = Date.now(); ; ) {
    const done = await (await fetch(`${server.url}/v1/contact_imports/${accepted.id}`, { headers })).json();
    if (done.status === 'completed') return group;
    if (done.status !== 'processing') throw new Error(`import ended ${done.status}: ${JSON.stringify(done).slice(0, 300)}`);
    if (Date.now() - started > 600_000) throw new Error('import not done in 600 s');
    await sleep(200);
  }
}

/** When the campaign's CampaignExpanded was recorded (its last chunk of messages written), from events.db. */
function expandedAt(dataDir, campaignId) {
  const Database = require('better-sqlite3');
  const db = new Database(join(dataDir, 'events.db'), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare("SELECT recorded_at FROM events WHERE stream_id = ? AND type = 'CampaignExpanded'").get(`campaign-${campaignId}`);
    return row ? Date.parse(row.recorded_at) : null;
  } finally {
    db.close();
  }
}

/**
 * 15. Campaign to an audience (issue 32): a dedicated server and one wallet; AUDIENCE_RECIPIENTS contacts
 * imported into a group (not timed), then POST /v1/campaigns to the group with a personalised
 * message, twice: first scheduled an hour ahead (the acceptance alone: listing, the hold, every
 * message written SCHEDULED with its reservation), which is then canceled, then sent now (every
 * message written QUEUED while the dispatcher and the TEST carrier already send the first ones,
 * on the same worker thread as the read models). Each is timed from the request to the
 * campaign's CampaignExpanded in the log ("accepted": expanded, reserved, queued), with the
 * answer time, the time until the read model counts every message, and the server's CPU and peak
 * RSS over that window.
 */
function audienceCampaign() {
  const dataDir = join(tmpRoot, 'audience-campaign');
  return onOwnServer(dataDir, 1, {}, async (server, keys) => {
    const headers = { authorization: `Bearer ${keys[0]}` };
    log(`15 audience campaign: importing ${AUDIENCE_RECIPIENTS} contacts into a group (not timed)`);
    const group = await importedGroup(server, headers, contactsCsv(AUDIENCE_RECIPIENTS), 'Bench campaign');
    const once = async (label, sendAt) => {
      await sleep(3000); // what came before settles before the clock starts
      const rssBeforeMb = Math.round(treeRssKb(server.child.pid) / 1024);
      const sampler = rssSampler(server.child.pid);
      const cpuBefore = treeCpuSeconds(server.child.pid);
      const startedAt = Date.now();
      const started = process.hrtime.bigint();
      const response = await fetch(`${server.url}/v1/campaigns`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: `Bench term reminder (${label})`,
          sender_id: 'BenchShop',
          type: 'transactional',
          message: 'Dear {{first_name}}, {{class}} resumes on Monday. {{school}}',
          audience: { groups: [group.id] },
          ...(sendAt ? { send_at: sendAt } : {}),
        }),
      });
      const answer = await response.json();
      const answeredMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (response.status !== 200 || answer.recipients !== AUDIENCE_RECIPIENTS) throw new Error(`campaign answered ${response.status}: ${JSON.stringify(answer).slice(0, 400)}`);
      let expanded = null;
      while ((expanded = expandedAt(dataDir, answer.id)) === null) {
        if (Date.now() - startedAt > 600_000) throw new Error('campaign not written in 600 s');
        await sleep(50);
      }
      const acceptedCpu = treeCpuSeconds(server.child.pid) - cpuBefore;
      let countedMs = null;
      for (;;) {
        const c = await (await fetch(`${server.url}/v1/campaigns/${answer.id}`, { headers })).json();
        if (Object.values(c.counts).reduce((a, b) => a + b, 0) === AUDIENCE_RECIPIENTS) {
          countedMs = Number(process.hrtime.bigint() - started) / 1e6;
          break;
        }
        if (Date.now() - startedAt > 600_000) throw new Error(`campaign not counted in 600 s: ${JSON.stringify(c.counts)}`);
        await sleep(100);
      }
      const peakKb = sampler.stop();
      const round = (x) => Math.round(x * 10) / 10;
      const result = {
        id: answer.id,
        answered_ms: Math.round(answeredMs),
        accepted_s: round((expanded - startedAt) / 1000),
        counted_s: round(countedMs / 1000),
        cpu_s: round(acceptedCpu),
        rss_before_mb: rssBeforeMb,
        peak_rss_mb: Math.round(peakKb / 1024),
      };
      log(`15 audience campaign of ${AUDIENCE_RECIPIENTS}, ${label}: answered in ${result.answered_ms} ms, all written (accepted) in ${result.accepted_s} s with ${result.cpu_s} s of server CPU, counted by the read model in ${result.counted_s} s, peak RSS ${result.peak_rss_mb} MB (${result.rss_before_mb} MB before)`);
      return result;
    };
    const scheduled = await once('scheduled', new Date(Date.now() + 3_600_000).toISOString());
    const canceled = await fetch(`${server.url}/v1/campaigns/${scheduled.id}/cancel`, { method: 'POST', headers });
    if (canceled.status !== 200) throw new Error(`cancel answered ${canceled.status}`);
    const now = await once('sent now');
    return { recipients: AUDIENCE_RECIPIENTS, scheduled, now };
  });
}

async function main() {
  const started = Date.now();
  const results = { machine: machine(), started_at: new Date().toISOString(), duration_s: DURATION, connections: CONNECTIONS, scenarios: {} };
  const s = results.scenarios;

  // 1. Baseline: the framework's ceiling.
  if (!ONLY) {
    log('1/8 baseline: bare NestJS-on-Fastify JSON route');
    const port = await freePort();
    const child = startProcess([join(__dirname, 'baseline-app.js')], { PORT: String(port) }, 'baseline');
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(url, child);
    await load({ url, kind: 'get', connections: CONNECTIONS, duration: WARMUP });
    s.baseline = await measure(child.pid, { url, kind: 'get', connections: CONNECTIONS, duration: DURATION }, { server: false });
    await stopProcess(child);
  }

  // 1b. The floor of a send on the card's stack, in the same run as the baseline.
  if (runs('floor')) s.floor = await floor();

  // 2-4. Sends, hot wallet, reads: one server on a seeded store.
  if (runs('sends')) {
    const sendsDir = join(tmpRoot, 'sends');
    log('seeding 101 merchants (100 spread + 1 hot wallet)');
    const seeded = await seedMerchants(sendsDir, 101, 10_000_000);
    results.seed_ms = seeded.ms;
    const spreadKeys = seeded.keys.slice(0, 100);
    const hotKey = seeded.keys[100];
    const server = await startServer(sendsDir);
    try {
      const probe = await sendsAvailable(server.url, spreadKeys[0]);
      if (!probe.ok) {
        log(`send scenarios skipped: ${probe.reason}`);
        for (const name of ['sends', 'hot_wallet', 'reads']) s[name] = { skipped: probe.reason };
      } else {
        log('2/8 sends over 100 wallets');
        await load({ url: server.url, kind: 'sends', keys: spreadKeys, connections: CONNECTIONS, duration: WARMUP });
        const sends = await measure(server.child.pid, {
          url: server.url,
          kind: 'sends',
          keys: spreadKeys,
          connections: CONNECTIONS,
          duration: DURATION,
          collectIds: 20_000,
        });
        const ids = sends.ids;
        delete sends.ids;
        s.sends = sends;
        log('3/8 sends on one hot wallet');
        s.hot_wallet = await measure(server.child.pid, { url: server.url, kind: 'sends', keys: [hotKey], connections: CONNECTIONS, duration: DURATION });
        delete s.hot_wallet.ids;
        log(`4/8 reads of ${ids.length} message ids`);
        s.reads = await measure(server.child.pid, { url: server.url, kind: 'reads', keys: spreadKeys, reads: ids, connections: CONNECTIONS, duration: DURATION });
        delete s.reads.ids;
      }
    } finally {
      server.sampler.stop();
      await stopProcess(server.child);
    }
  }

  if (runs('otp')) s.otp = await otpLatency();
  if (runs('sustained') && process.env.BENCH_SKIP_SUSTAINED !== '1') s.sustained = await sustained();
  if (runs('batch')) s.batch = await batchSend();
  if (runs('imports')) s.imports = await contactImport();
  if (runs('verify')) s.verify = await verify();
  // 12-13. The idle server, then a campaign on it (BENCH_ONLY=idle: the idle server alone).
  if (ONLY === 'idle') s.idle = await idle();
  else if (runs('campaign')) {
    const c = await campaign({ measureIdle: true });
    if (c.skipped) s.idle = s.campaign = c;
    else {
      s.idle = c.idle;
      delete c.idle;
      s.campaign = c;
    }
  }
  if (ONLY === 'hostile') s.hostile = await hostile();
  if (runs('audience')) s.audience = await audienceCampaign();

  // 5-6. Wallet load time by history length, replay and rebuild speed (no HTTP).
  if (!ONLY && process.env.BENCH_SKIP_STORE !== '1') {
    log('5-6/8 wallet loads (0 / 2 / 100k / 1M events), replay, projections:rebuild');
    const storeDir = join(tmpRoot, 'store');
    mkdirSync(storeDir, { recursive: true });
    const store = await runJson([join(__dirname, 'store-bench.js'), storeDir], { LOG_LEVEL: 'error', EVENT_STORE_URL: '', MONGODB_URL: '' });
    s.wallet_load = { seed: store.seed, load: store.load };
    s.replay = store.replay;
    s.rebuild = store.rebuild;
  }

  results.server_peak_rss_mb = Math.round(serverPeakRssKb / 1024);
  results.total_s = Math.round((Date.now() - started) / 1000);
  results.targets = evaluate(s, results.server_peak_rss_mb);
  writeFileSync(join(__dirname, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  print(results);
}

function evaluate(s, peakRssMb) {
  const t = [];
  const add = (name, target, measured, pass) => t.push({ name, target, measured, result: measured === null ? 'SKIP' : pass ? 'PASS' : 'FAIL' });
  const has = (x) => x && !x.skipped;
  const ratio = (a, b) => `${(a / b).toFixed(2)}x (${Math.round(a)} vs ${Math.round(b)})`;
  const u = s.sustained;
  const sustainedTarget = `>= ${TARGETS.sustainedVsBaseline}x`;
  if (has(u) && has(s.baseline)) add('sustained settled/s vs baseline req/s', sustainedTarget, ratio(u.settled_per_s, s.baseline.rps), u.settled_per_s >= s.baseline.rps * TARGETS.sustainedVsBaseline);
  else add('sustained settled/s vs baseline req/s', sustainedTarget, null);
  const drainTarget = `0 left ${DRAIN_SECONDS} s after the load`;
  if (has(u)) add('sustained backlog drained', drainTarget, `${u.backlog_after_observe} left (${u.backlog_at_end} at the end, drained after ${u.drained_after_s ?? `more than ${u.observe_s}`} s)`, u.backlog_after_observe === 0);
  else add('sustained backlog drained', drainTarget, null);
  // Single sends against the floor of the card's stack (1b), measured in the same run (issue 34).
  const burstTarget = `>= ${TARGETS.burstVsFloor}x the floor (1b) at ${CONNECTIONS} connections`;
  const burstP99Target = `<= ${TARGETS.burstP99VsFloor}x the floor's p99`;
  if (has(s.sends) && has(s.floor)) {
    add('burst sends vs floor req/s', burstTarget, ratio(s.sends.rps, s.floor.rps), s.sends.rps >= s.floor.rps * TARGETS.burstVsFloor);
    add('burst sends p99 vs floor p99', burstP99Target, `${(s.sends.p99_ms / s.floor.p99_ms).toFixed(2)}x (${s.sends.p99_ms} vs ${s.floor.p99_ms} ms)`, s.sends.p99_ms <= s.floor.p99_ms * TARGETS.burstP99VsFloor);
  } else {
    add('burst sends vs floor req/s', burstTarget, null);
    add('burst sends p99 vs floor p99', burstP99Target, null);
  }
  if (has(s.hot_wallet) && has(s.sends)) {
    const r = s.hot_wallet.rps / s.sends.rps;
    add('hot wallet vs spread sends', `>= ${TARGETS.hotVsSpread}x, 0 errors`, `${r.toFixed(2)}x, ${s.hot_wallet.errors} errors`, r >= TARGETS.hotVsSpread && s.hot_wallet.errors === 0);
  } else add('hot wallet vs spread sends', `>= ${TARGETS.hotVsSpread}x, 0 errors`, null);
  const o = s.otp;
  const otpSendTarget = `<= ${TARGETS.otpSendP99Ms} ms at ${DLR_RATE} sends/s, 0 errors`;
  const otpDeliveredTarget = `<= ${TARGETS.otpDeliveredP99Ms} ms, all delivered`;
  if (has(o)) {
    add('OTP send p99', otpSendTarget, `${o.sends.p99_ms} ms (p50 ${o.sends.p50_ms} ms), ${o.sends.errors} errors`, o.sends.p99_ms <= TARGETS.otpSendP99Ms && o.sends.errors === 0);
    add('OTP accept to DELIVERED p99', otpDeliveredTarget, o.p99_ms === null ? 'none delivered' : `${o.p99_ms} ms (p50 ${o.p50_ms} ms), ${o.delivered}/${o.messages} delivered`, o.p99_ms !== null && o.p99_ms <= TARGETS.otpDeliveredP99Ms && o.delivered === o.messages);
  } else for (const [name, target] of [['OTP send p99', otpSendTarget], ['OTP accept to DELIVERED p99', otpDeliveredTarget]]) add(name, target, null);
  const c = s.campaign;
  const campaignTarget = `>= ${TARGETS.campaignSettledVsBaseline}x baseline req/s`;
  const campaignCpuTarget = `<= ${TARGETS.campaignCpuMsPerMessage} ms, request to settlement`;
  const campaignRssTarget = `<= ${TARGETS.rssMb} MB`;
  if (has(c) && has(s.baseline)) add('campaign settled/s vs baseline', campaignTarget, ratio(c.settled_per_s, s.baseline.rps), c.settled_per_s >= s.baseline.rps * TARGETS.campaignSettledVsBaseline);
  else add('campaign settled/s vs baseline', campaignTarget, null);
  if (has(c)) {
    add('campaign CPU per message', campaignCpuTarget, c.cpu_ms_per_message === null ? 'not measured' : `${c.cpu_ms_per_message} ms`, c.cpu_ms_per_message !== null && c.cpu_ms_per_message <= TARGETS.campaignCpuMsPerMessage);
    add('campaign peak RSS', campaignRssTarget, `${c.peak_rss_mb} MB`, c.peak_rss_mb <= TARGETS.rssMb);
  } else {
    add('campaign CPU per message', campaignCpuTarget, null);
    add('campaign peak RSS', campaignRssTarget, null);
  }
  const idleTarget = `<= ${TARGETS.idleCpuMsPerSecond} ms of CPU a second`;
  if (has(s.idle)) add('idle server', idleTarget, `${s.idle.cpu_ms_per_s} ms/s`, s.idle.cpu_ms_per_s <= TARGETS.idleCpuMsPerSecond);
  else add('idle server', idleTarget, null);
  if (s.wallet_load) {
    const fresh = s.wallet_load.load.wal_empty.median_ms;
    const long = s.wallet_load.load.wal_1m.median_ms;
    add('1M-event wallet load vs fresh', `<= ${TARGETS.loadVsFresh}x`, `${(long / fresh).toFixed(2)}x (${long} vs ${fresh} ms)`, long <= fresh * TARGETS.loadVsFresh);
    add('wallet replay', `>= ${TARGETS.replayEventsPerS} events/s`, `${s.replay.events_per_s} events/s`, s.replay.events_per_s >= TARGETS.replayEventsPerS);
  } else {
    add('1M-event wallet load vs fresh', `<= ${TARGETS.loadVsFresh}x`, null);
    add('wallet replay', `>= ${TARGETS.replayEventsPerS} events/s`, null);
  }
  const batchTarget = `< ${TARGETS.batchAnswerMs} ms (median)`;
  if (has(s.batch)) add(`${BATCH_ITEMS}-item batch answered`, batchTarget, `${s.batch.median_ms} ms (${s.batch.messages_per_s} messages/s)`, s.batch.median_ms < TARGETS.batchAnswerMs);
  else add(`${BATCH_ITEMS}-item batch answered`, batchTarget, null);
  const imp = s.imports;
  const importTarget = `<= ${TARGETS.importSeconds} s, <= ${TARGETS.rssMb} MB, all created`;
  if (has(imp))
    add(
      `${imp.rows}-row CSV import completed`,
      importTarget,
      `${imp.first.seconds} s (${imp.first.cpu_s} s of server CPU), peak ${imp.first.peak_rss_mb} MB, created ${imp.first.created}; again: ${imp.again.seconds} s, created ${imp.again.created}, updated ${imp.again.updated}`,
      imp.first.seconds <= TARGETS.importSeconds && imp.first.peak_rss_mb <= TARGETS.rssMb && imp.first.created === imp.rows && imp.again.created === 0 && imp.again.updated === 0 && imp.group_contacts === imp.rows,
    );
  else add('CSV import completed', importTarget, null);
  const aud = s.audience;
  const audienceTarget = `<= ${TARGETS.audienceAcceptedSeconds} s, <= ${TARGETS.rssMb} MB`;
  const audienceRun = (r) => `${r.accepted_s} s (answered in ${r.answered_ms} ms; ${r.cpu_s} s of server CPU; counted in ${r.counted_s} s), peak ${r.peak_rss_mb} MB`;
  const audiencePass = (r) => r.accepted_s <= TARGETS.audienceAcceptedSeconds && r.peak_rss_mb <= TARGETS.rssMb;
  if (has(aud)) {
    add(`${aud.recipients}-recipient audience campaign accepted, scheduled (expanded, reserved, written)`, audienceTarget, audienceRun(aud.scheduled), audiencePass(aud.scheduled));
    add(`${aud.recipients}-recipient audience campaign accepted, sent now (expanded, reserved, queued)`, audienceTarget, audienceRun(aud.now), audiencePass(aud.now));
  } else add('audience campaign accepted', audienceTarget, null);
  const v = s.verify;
  const verifyTargets = [
    ['verify create p99', `<= ${TARGETS.verifyCreateP99Ms} ms at ${DLR_RATE}/s, 0 errors`],
    ['verify check p99', `<= ${TARGETS.verifyCheckP99Ms} ms at ${DLR_RATE}/s, 0 errors`],
    ['verify create to DELIVERED p99', `<= ${TARGETS.verifyDeliveredP99Ms} ms, all delivered`],
  ];
  if (has(v)) {
    add(...verifyTargets[0], `${v.creates.p99_ms} ms (p50 ${v.creates.p50_ms} ms), ${v.creates.errors} errors`, v.creates.p99_ms <= TARGETS.verifyCreateP99Ms && v.creates.errors === 0);
    add(...verifyTargets[1], `${v.checks.p99_ms} ms (p50 ${v.checks.p50_ms} ms), ${v.checks.errors} errors`, v.checks.p99_ms <= TARGETS.verifyCheckP99Ms && v.checks.errors === 0);
    add(...verifyTargets[2], v.p99_ms === null ? 'none delivered' : `${v.p99_ms} ms (p50 ${v.p50_ms} ms), ${v.delivered}/${v.verifications} delivered`, v.p99_ms !== null && v.p99_ms <= TARGETS.verifyDeliveredP99Ms && v.delivered === v.verifications);
  } else for (const [name, target] of verifyTargets) add(name, target, null);
  const h = s.hostile;
  for (const name of ['shape', 'refused', 'unauthenticated']) {
    const target = `< ${TARGETS.hostileVictimP99Ms} ms`;
    const victim = h?.[name]?.victim;
    if (victim) add(`another tenant's send p99, attacker: ${name}`, target, `${victim.p99_ms} ms (idle ${h.idle?.victim?.p99_ms} ms)`, victim.p99_ms < TARGETS.hostileVictimP99Ms);
    else if (ONLY === 'hostile') add(`another tenant's send p99, attacker: ${name}`, target, null);
  }
  add('server peak RSS (process tree)', `<= ${TARGETS.rssMb} MB`, `${peakRssMb} MB`, peakRssMb <= TARGETS.rssMb);
  return t;
}

function print(results) {
  const s = results.scenarios;
  const rows = [['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'peak RSS MB', 'ratio']];
  const ok = (r) => r && !r.skipped;
  const http = (name, r, ratio, rps = r?.rps) =>
    rows.push(ok(r) ? [name, Math.round(rps), r.p50_ms, r.p99_ms, r.errors, r.peak_rss_mb, ratio ?? ''] : [name, 'skipped', '', '', '', '', '']);
  http('1 baseline GET {ok:true}', s.baseline, '1.00 (baseline)');
  http('1b floor: Nest + send DTO + 1 commit', s.floor, ok(s.floor) && ok(s.baseline) ? `${(s.floor.rps / s.baseline.rps).toFixed(2)} of baseline` : '');
  const burstRatio = [ok(s.baseline) && `${(s.sends?.rps / s.baseline.rps).toFixed(2)} of baseline`, ok(s.floor) && `${(s.sends?.rps / s.floor.rps).toFixed(2)} of floor`].filter(Boolean).join(', ');
  http('2 burst sends, 100 wallets', s.sends, burstRatio);
  http('3 sends, 1 hot wallet', s.hot_wallet, ok(s.hot_wallet) && ok(s.sends) ? `${(s.hot_wallet.rps / s.sends.rps).toFixed(2)} of spread` : '');
  http('4 GET /v1/messages/:id', s.reads, ok(s.reads) && ok(s.baseline) ? `${(s.reads.rps / s.baseline.rps).toFixed(2)} of baseline` : '');
  http(`7 OTP sends, ${s.otp?.connections ?? 16} connections`, s.otp?.skipped ? s.otp : s.otp?.sends);
  const u = s.sustained;
  http('8 sustained: accepted/s, send ms', u, '', u?.accepted_per_s);
  rows.push(ok(u) ? ['8 sustained: settled/s', u.settled_per_s, '', '', '', '', ok(s.baseline) ? `${(u.settled_per_s / s.baseline.rps).toFixed(2)} of baseline` : ''] : ['8 sustained: settled/s', 'skipped', '', '', '', '', '']);
  const c = s.campaign;
  if (c) {
    const ofBaseline = (x) => (ok(s.baseline) ? `${(x / s.baseline.rps).toFixed(2)} of baseline` : '');
    rows.push(ok(c) ? ['13 campaign: accepted/s', c.accepted_per_s, '', '', 0, c.peak_rss_mb, ofBaseline(c.accepted_per_s)] : ['13 campaign', 'skipped', '', '', '', '', '']);
    if (ok(c)) rows.push(['13 campaign: settled/s', c.settled_per_s, '', '', '', '', ofBaseline(c.settled_per_s)]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  const line = (r) => r.map((c, i) => String(c).padEnd(widths[i])).join(' | ');
  const out = [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.slice(1).map(line)];
  if (s.wallet_load) {
    out.push('', '5 wallet load (AggregateStore.load, median of 1,000, wallets in turn):');
    for (const l of Object.values(s.wallet_load.load)) out.push(`  ${String(l.events).padStart(9)} events: ${l.median_ms} ms (p99 ${l.p99_ms} ms)`);
    for (const [id, seed] of Object.entries(s.wallet_load.seed)) out.push(`  seeding ${id}: ${seed.events} events in ${seed.ms} ms (${seed.events_per_s} events/s)`);
    out.push(`6 wallet:replay: ${s.replay.events} events in ${s.replay.ms} ms = ${s.replay.events_per_s} events/s`);
    out.push(`  projections:rebuild: ${s.rebuild.events} events in ${s.rebuild.ms} ms = ${s.rebuild.events_per_s} events/s`);
  }
  if (ok(s.floor)) {
    const f = s.floor.paced;
    out.push(
      `1b floor at ${f.rate} requests/s from 16 connections: p50 ${f.p50_ms} ms, p99 ${f.p99_ms} ms, CPU ${f.cpu_ms_per_request} ms per request` +
        ' (the stack alone: no authentication, wallet, dispatch or read models; compare the CPU per message target)',
    );
  }
  const o = s.otp;
  if (ok(o)) {
    out.push(
      `7 OTP latency at ${o.rate} sends/s from ${o.connections} connections (TEST_DLR_DELAY_MS=0): send p50 ${o.sends.p50_ms} ms, p99 ${o.sends.p99_ms} ms, ${o.sends.errors} errors;` +
        ` accept to DELIVERED p50 ${o.p50_ms} ms, p99 ${o.p99_ms} ms, max ${o.max_ms} ms, ${o.delivered}/${o.messages} delivered;` +
        ` all settled ${o.settled_after_load_ms ?? 'more than 30,000'} ms after the last response; server CPU ${o.cpu_ms_per_message} ms per message` +
        ` (${o.warmup.cpu_ms_per_message} ms in the ${o.warmup.seconds} s warm-up of the fresh server)`,
    );
  }
  if (ok(u)) {
    out.push(
      `8 sustained over ${u.window_s} s after ${u.warmup_s} s of ramp (TEST_DLR_DELAY_MS=0, 100 wallets, ${results.connections} connections): accepted ${u.accepted_per_s}/s, settled ${u.settled_per_s}/s;` +
        ` rate ${u.rate.mean}/s (${u.rate.min}-${u.rate.max}), ${u.client_limited_sends} sends skipped with every connection busy;` +
        ` backlog ${u.backlog_at_end} at the end, ${u.backlog_after_observe} after ${u.observe_s} s, drained after ${u.drained_after_s ?? `more than ${u.drain_watch_s}`} s; server CPU ${u.cpu_ms_per_settled} ms per settled message`,
    );
  }
  const b = s.batch;
  if (ok(b)) {
    out.push(
      `9 batch of ${b.items} items (${b.body_kb} KiB), one at a time on an idle server: answered in ${b.median_ms} ms (median of ${b.batches}; ${b.min_ms}-${b.max_ms} ms) = ${b.messages_per_s} messages/s`,
    );
  }
  const imp = s.imports;
  if (ok(imp)) {
    out.push(
      `10 import of ${imp.rows} rows (${imp.file_kb} KiB): accepted in ${imp.first.accepted_ms} ms, completed in ${imp.first.seconds} s (${imp.first.cpu_s} s of server CPU), peak RSS ${imp.first.peak_rss_mb} MB;` +
        ` the same file again: ${imp.again.seconds} s (${imp.again.cpu_s} s of CPU), created ${imp.again.created}, updated ${imp.again.updated}; the group lists ${imp.group_contacts}`,
    );
  }
  const v = s.verify;
  if (ok(v)) {
    out.push(
      `11 verify at ${v.rate}/s from ${v.connections} connections (TEST_DLR_DELAY_MS=0): create p50 ${v.creates.p50_ms} ms, p99 ${v.creates.p99_ms} ms, ${v.creates.errors} errors;` +
        ` check p50 ${v.checks.p50_ms} ms, p99 ${v.checks.p99_ms} ms, ${v.checks.errors} errors; create to DELIVERED p50 ${v.p50_ms} ms, p99 ${v.p99_ms} ms, max ${v.max_ms} ms, ${v.delivered}/${v.verifications} delivered;` +
        ` server CPU ${v.cpu_ms_per_verification} ms per verification (create, its SMS to settlement, a check)`,
    );
  }
  if (ok(s.idle)) {
    const sorted = [...s.idle.per_second].sort((a, b) => a - b);
    out.push(
      `12 idle server (${s.idle.settle_s} s after start-up, measured over ${s.idle.seconds} s): ${s.idle.cpu_ms_per_s} ms of CPU a second (process tree);` +
        ` seconds from ${sorted[0]} to ${sorted.at(-1)} ms, median ${sorted[Math.floor(sorted.length / 2)]} ms`,
    );
  }
  if (ok(c)) {
    out.push(
      `13 campaign of ${c.messages} messages (${c.batches} batches of ${c.items}, one wallet, ${c.connections} connections, TEST_DLR_DELAY_MS=0): last batch answered after ${c.accepted_s} s (${c.accepted_per_s}/s),` +
        ` every message final and settled after ${c.settled_s} s (${c.settled_per_s}/s); ${c.unsettled_at_last_answer} unsettled at the last answer; batch answer p50 ${c.batch_answer_ms.p50} ms, max ${c.batch_answer_ms.max} ms;` +
        ` server CPU ${c.cpu_ms_per_message} ms per message, peak RSS ${c.peak_rss_mb} MB`,
    );
  }
  const h = s.hostile;
  if (h) {
    out.push(`14 hostile tenant, ${VICTIM_RATE} victim sends/s for ${HOSTILE_SECONDS} s per phase (fresh server each):`);
    for (const name of ['idle', 'shape', 'refused', 'unauthenticated']) {
      const p = h[name];
      if (!p?.victim) continue;
      const attack = p.attack ? `; attack ${p.attack.mb_per_request} MB bodies: ${p.attack.sent} sent, ${p.attack.skipped} skipped (8 in flight), answers ${JSON.stringify(p.attack.statuses)}` : '';
      out.push(`  ${name}: victim p50 ${p.victim.p50_ms} ms, p99 ${p.victim.p99_ms} ms, max ${p.victim.max_ms} ms, answers ${JSON.stringify(p.victim.statuses)}${attack}`);
    }
    if (h.slow) out.push(`  slow: ${h.slow.uploads} uploads stalled at 90%: ${h.slow.held_mb_after_5s} MB held after 5 s; closed by the server ${h.slow.closed_within_5s} within 5 s, ${h.slow.closed_within_45s} within 45 s (last after ${h.slow.last_closed_after_s} s)`);
    if (h.costs) for (const [name, c] of Object.entries(h.costs)) out.push(`  cost of one ${name}: ${c.status} in ${c.answer_ms} ms, server CPU ${c.server_cpu_ms} ms`);
  }
  const aud = s.audience;
  if (ok(aud)) {
    for (const [label, r] of [['scheduled', aud.scheduled], ['sent now', aud.now]]) {
      out.push(
        `15 campaign to an audience of ${aud.recipients}, ${label}: answered in ${r.answered_ms} ms, every message written (accepted) ${r.accepted_s} s after the request with ${r.cpu_s} s of server CPU, counted by the read model after ${r.counted_s} s; peak RSS ${r.peak_rss_mb} MB (${r.rss_before_mb} MB before it)`,
      );
    }
  }
  out.push(`server peak RSS (process tree) over the run: ${results.server_peak_rss_mb} MB; total ${results.total_s} s`, '', 'targets:');
  for (const t of results.targets) out.push(`  ${t.result.padEnd(4)} ${t.name}: ${t.measured ?? 'not measured'} (target ${t.target})`);
  process.stdout.write(`${out.join('\n')}\n`);
}

function machine() {
  const os = require('node:os');
  return { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version, mem_gb: Math.round(os.totalmem() / 2 ** 30), loadavg_at_start: os.loadavg().map((x) => Number(x.toFixed(2))) };
}

async function cleanup() {
  await Promise.all([...children].map((c) => stopProcess(c)));
  if (process.env.BENCH_KEEP !== '1') rmSync(tmpRoot, { recursive: true, force: true });
  else log(`data kept in ${tmpRoot}`);
}

process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));
main()
  .then(cleanup)
  .catch(async (error) => {
    console.error(error);
    await cleanup();
    process.exit(1);
  });
