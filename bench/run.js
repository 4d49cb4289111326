'use strict';
/**
 * `npm run bench`: builds (the npm script does), then measures the service on this machine.
 * Every server is a child process on 127.0.0.1 with a fresh embedded store; the load comes
 * from a second process (bench/load.js, autocannon). Prints a table, PASS/FAIL per target,
 * and writes bench/results.json. See docs/performance.md.
 *
 * Options (environment): BENCH_DURATION (seconds per HTTP scenario, default 10),
 * BENCH_CONNECTIONS (64), BENCH_DLR_RATE (sends/s in the DLR scenario, 200),
 * BENCH_DLR_SECONDS (10), BENCH_SKIP_STORE=1 (skip scenarios 5-6), BENCH_KEEP=1 (keep the
 * temp data directories), BENCH_CPU_PROF=dir (run the servers under node --cpu-prof),
 * BENCH_SQL_STATS=dir (count each server's SQLite statements, see sql-stats.js), BENCH_ONLY=dlr or
 * sends (scenario 7, or 2-4, alone).
 */
const { spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } = require('node:fs');
const net = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const DLR_RATE = Number(process.env.BENCH_DLR_RATE ?? 200);
const DLR_SECONDS = Number(process.env.BENCH_DLR_SECONDS ?? 10);
const WARMUP = 3;
/**
 * BENCH_ONLY=dlr runs scenario 7 alone (a quick, steady measure of what one message costs);
 * BENCH_ONLY=sends runs scenarios 2-4 alone (their ratios then have no baseline).
 */
const ONLY = process.env.BENCH_ONLY;

const TARGETS = {
  sendsVsBaseline: 0.35,
  sendsP99Ms: 30,
  hotVsSpread: 0.8,
  loadVsFresh: 2,
  replayEventsPerS: 100_000,
  dlrP99Ms: 100,
  rssMb: 300,
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

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in USER_HZ ticks
  } catch {
    return null;
  }
}

function readRssKb(pid) {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Samples a process's VmRSS every 100 ms; stop() returns the peak in kB. */
function rssSampler(pid, { server = true } = {}) {
  let peak = readRssKb(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, readRssKb(pid));
    if (server) serverPeakRssKb = Math.max(serverPeakRssKb, peak);
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, readRssKb(pid));
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

/** One autocannon run from the load process. */
function load(scenario) {
  const file = join(tmpRoot, `scenario-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(scenario));
  return runJson([join(__dirname, 'load.js'), `@${file}`]);
}

/** Load, sampling the server's RSS meanwhile. */
async function measure(serverPid, scenario, { server = true } = {}) {
  const sampler = rssSampler(serverPid, { server });
  const result = await load(scenario);
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
    LOG_LEVEL: 'error',
    EVENT_STORE_URL: '',
    MONGODB_URL: '',
    ...extra,
  };
}

/** The node flags of `npm start` (package.json), so the bench runs the server as it is run. */
const START_FLAGS = require('../package.json').scripts.start.split(' ').filter((a) => a.startsWith('--'));

async function startServer(dataDir, extra = {}) {
  const port = await freePort();
  const child = startProcess([...START_FLAGS, join(ROOT, 'dist/main.js')], serverEnv(port, dataDir, extra), 'server');
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

/** Accept-to-DELIVERED from the store: MessageQueued.recorded_at to MessageDelivered.recorded_at. */
function dlrLatencies(dataDir) {
  const Database = require('better-sqlite3');
  const db = new Database(join(dataDir, 'events.db'), { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT q.stream_id AS stream, q.recorded_at AS queued, d.recorded_at AS delivered
           FROM events q LEFT JOIN events d ON d.stream_id = q.stream_id AND d.type = 'MessageDelivered'
          WHERE q.type = 'MessageQueued'`,
      )
      .all();
    const latencies = rows.filter((r) => r.delivered).map((r) => Date.parse(r.delivered) - Date.parse(r.queued));
    latencies.sort((a, b) => a - b);
    const pick = (q) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] : null);
    return { messages: rows.length, delivered: latencies.length, p50_ms: pick(0.5), p99_ms: pick(0.99), max_ms: latencies.at(-1) ?? null };
  } finally {
    db.close();
  }
}

async function waitForDeliveries(dataDir, expected, timeoutMs) {
  const Database = require('better-sqlite3');
  const deadline = Date.now() + timeoutMs;
  const db = new Database(join(dataDir, 'events.db'), { readonly: true });
  try {
    const count = db.prepare(`SELECT count(*) AS n FROM events WHERE type IN ('MessageDelivered', 'MessageFailed', 'MessageExpired')`);
    while (Date.now() < deadline) {
      if (count.get().n >= expected) return;
      await sleep(200);
    }
  } finally {
    db.close();
  }
}

async function main() {
  const started = Date.now();
  const results = { machine: machine(), started_at: new Date().toISOString(), duration_s: DURATION, connections: CONNECTIONS, scenarios: {} };
  const s = results.scenarios;

  // 1. Baseline: the framework's ceiling.
  if (!ONLY) {
    log('1/7 baseline: bare NestJS-on-Fastify JSON route');
    const port = await freePort();
    const child = startProcess([join(__dirname, 'baseline-app.js')], { PORT: String(port) }, 'baseline');
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(url, child);
    await load({ url, kind: 'get', connections: CONNECTIONS, duration: WARMUP });
    s.baseline = await measure(child.pid, { url, kind: 'get', connections: CONNECTIONS, duration: DURATION }, { server: false });
    await stopProcess(child);
  }

  // 2-4. Sends, hot wallet, reads: one server on a seeded store.
  if (!ONLY || ONLY === 'sends') {
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
        log('2/7 sends over 100 wallets');
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
        log('3/7 sends on one hot wallet');
        s.hot_wallet = await measure(server.child.pid, { url: server.url, kind: 'sends', keys: [hotKey], connections: CONNECTIONS, duration: DURATION });
        delete s.hot_wallet.ids;
        log(`4/7 reads of ${ids.length} message ids`);
        s.reads = await measure(server.child.pid, { url: server.url, kind: 'reads', keys: spreadKeys, reads: ids, connections: CONNECTIONS, duration: DURATION });
        delete s.reads.ids;
      }
    } finally {
      server.sampler.stop();
      await stopProcess(server.child);
    }
  }

  // 7. Accept to DELIVERED with TEST_DLR_DELAY_MS=0, at a steady rate, on its own server.
  if (!ONLY || ONLY === 'dlr') {
    const dlrDir = join(tmpRoot, 'dlr');
    const seededDlr = await seedMerchants(dlrDir, 10, 1_000_000);
    const server = await startServer(dlrDir, { TEST_DLR_DELAY_MS: '0' });
    try {
      const probe = await sendsAvailable(server.url, seededDlr.keys[0]);
      if (!probe.ok) {
        s.accept_to_delivered = { skipped: probe.reason };
      } else {
        log(`7/7 accept to DELIVERED: ${DLR_RATE} sends/s for ${DLR_SECONDS} s, TEST_DLR_DELAY_MS=0`);
        const amount = DLR_RATE * DLR_SECONDS;
        const cpuBefore = cpuSeconds(server.child.pid);
        const driven = await measure(server.child.pid, {
          url: server.url,
          kind: 'sends',
          keys: seededDlr.keys,
          connections: 16,
          amount,
          duration: DLR_SECONDS * 3,
          overallRate: DLR_RATE,
        });
        delete driven.ids;
        await waitForDeliveries(dlrDir, driven.ok + 1, 15_000);
        await sleep(500); // settlement and webhook events follow the receipt
        const cpuAfter = cpuSeconds(server.child.pid);
        // Everything the server did for these messages, request to settlement, per message.
        const cpuMsPerMessage = cpuBefore === null || cpuAfter === null || driven.ok === 0 ? null : Math.round(((cpuAfter - cpuBefore) * 1000 * 100) / driven.ok) / 100;
        s.accept_to_delivered = { rate: DLR_RATE, sends: driven, cpu_ms_per_message: cpuMsPerMessage, ...dlrLatencies(dlrDir) };
      }
    } finally {
      server.sampler.stop();
      await stopProcess(server.child);
    }
  }

  // 5-6. Wallet load time by history length, replay and rebuild speed (no HTTP).
  if (!ONLY && process.env.BENCH_SKIP_STORE !== '1') {
    log('5-6/7 wallet loads (0 / 2 / 100k / 1M events), replay, projections:rebuild');
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
  if (has(s.sends) && has(s.baseline)) {
    const ratio = s.sends.rps / s.baseline.rps;
    add('sends vs baseline req/s', `>= ${TARGETS.sendsVsBaseline}x`, `${ratio.toFixed(2)}x`, ratio >= TARGETS.sendsVsBaseline);
    add('sends p99 latency', `<= ${TARGETS.sendsP99Ms} ms`, `${s.sends.p99_ms} ms`, s.sends.p99_ms <= TARGETS.sendsP99Ms);
  } else {
    add('sends vs baseline req/s', `>= ${TARGETS.sendsVsBaseline}x`, null);
    add('sends p99 latency', `<= ${TARGETS.sendsP99Ms} ms`, null);
  }
  if (has(s.hot_wallet) && has(s.sends)) {
    const ratio = s.hot_wallet.rps / s.sends.rps;
    add('hot wallet vs spread sends', `>= ${TARGETS.hotVsSpread}x, 0 errors`, `${ratio.toFixed(2)}x, ${s.hot_wallet.errors} errors`, ratio >= TARGETS.hotVsSpread && s.hot_wallet.errors === 0);
  } else add('hot wallet vs spread sends', `>= ${TARGETS.hotVsSpread}x, 0 errors`, null);
  if (s.wallet_load) {
    const fresh = s.wallet_load.load.wal_empty.median_ms;
    const long = s.wallet_load.load.wal_1m.median_ms;
    add('1M-event wallet load vs fresh', `<= ${TARGETS.loadVsFresh}x`, `${(long / fresh).toFixed(2)}x (${long} vs ${fresh} ms)`, long <= fresh * TARGETS.loadVsFresh);
    add('wallet replay', `>= ${TARGETS.replayEventsPerS} events/s`, `${s.replay.events_per_s} events/s`, s.replay.events_per_s >= TARGETS.replayEventsPerS);
  } else {
    add('1M-event wallet load vs fresh', `<= ${TARGETS.loadVsFresh}x`, null);
    add('wallet replay', `>= ${TARGETS.replayEventsPerS} events/s`, null);
  }
  if (has(s.accept_to_delivered) && s.accept_to_delivered.p99_ms !== null) {
    const d = s.accept_to_delivered;
    add('accept to DELIVERED p99', `<= ${TARGETS.dlrP99Ms} ms`, `${d.p99_ms} ms (${d.delivered}/${d.messages} delivered)`, d.p99_ms <= TARGETS.dlrP99Ms && d.delivered === d.messages);
  } else add('accept to DELIVERED p99', `<= ${TARGETS.dlrP99Ms} ms`, null);
  add('server peak RSS', `<= ${TARGETS.rssMb} MB`, `${peakRssMb} MB`, peakRssMb <= TARGETS.rssMb);
  return t;
}

function print(results) {
  const s = results.scenarios;
  const rows = [['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'peak RSS MB', 'ratio']];
  const http = (name, r, ratio) =>
    rows.push(r && !r.skipped ? [name, Math.round(r.rps), r.p50_ms, r.p99_ms, r.errors, r.peak_rss_mb, ratio ?? ''] : [name, 'skipped', '', '', '', '', '']);
  http('1 baseline GET {ok:true}', s.baseline, '1.00 (baseline)');
  http('2 sends, 100 wallets', s.sends, s.sends?.rps && s.baseline ? `${(s.sends.rps / s.baseline.rps).toFixed(2)} of baseline` : '');
  http('3 sends, 1 hot wallet', s.hot_wallet, s.hot_wallet?.rps && s.sends?.rps ? `${(s.hot_wallet.rps / s.sends.rps).toFixed(2)} of spread` : '');
  http('4 GET /v1/messages/:id', s.reads, s.reads?.rps && s.baseline ? `${(s.reads.rps / s.baseline.rps).toFixed(2)} of baseline` : '');
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
  const d = s.accept_to_delivered;
  if (d && !d.skipped) {
    out.push(`7 accept to DELIVERED at ${d.rate}/s (TEST_DLR_DELAY_MS=0): p50 ${d.p50_ms} ms, p99 ${d.p99_ms} ms, max ${d.max_ms} ms; ${d.delivered}/${d.messages} delivered; send p99 ${d.sends.p99_ms} ms, ${d.sends.errors} errors; server CPU ${d.cpu_ms_per_message} ms per message`);
  }
  out.push(`server peak RSS over the run: ${results.server_peak_rss_mb} MB; total ${results.total_s} s`, '', 'targets:');
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
