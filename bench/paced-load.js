'use strict';
/**
 * The paced load generator for the scenarios that send at a rate (7, OTP latency, and 8,
 * sustained). Run by bench/run.js as its own process like load.js: one JSON scenario in
 * argv[2] (or a file path prefixed with @), one JSON line out.
 *
 * Why not autocannon here: its overallRate gives each connection a budget per second that the
 * connection spends back to back at the start of the second, so "200 sends/s from 16
 * connections" is a burst of 16 concurrent senders every second; and its coordinated-omission
 * correction then records a made-up sample for every millisecond of each response (it takes
 * 1/rate in seconds for an interval in milliseconds). Here send n leaves at n / rate, spread
 * evenly, on a keep-alive connection, and each latency is one real response.
 *
 * Scenario: { url, keys, connections, mode: 'fixed' | 'settle', request?, ... }
 *  - request: 'send' (POST /v1/messages, the default), 'verify-create' (POST /v1/verifications;
 *    with `collect`, the answers' id and test_code come back as `collected`) or 'verify-check'
 *    (POST /v1/verifications/:id/check of each of `checks`, { id, code, key }, in turn).
 *  - fixed: `amount` sends at `rate`/s. Open loop: when all connections are busy a send waits
 *    for one, and that wait is part of its latency.
 *  - settle: the rate follows what the service settles (see nextRate), for `warmup` seconds and
 *    then a measured `window`; it needs `dataDir` (the server's, for bench/settlement.js) and
 *    `serverPid` (for the CPU of the server's process tree over the window). After the load it
 *    watches the backlog for `observe` seconds, and on until it drains or `drainMax` seconds.
 */
const net = require('node:net');
const { readFileSync } = require('node:fs');
const { performance } = require('node:perf_hooks');
const { treeCpuSeconds } = require('./proc-tree');
const { settlementCounter, noAcceptedEvents } = require('./settlement');
const { sendBody } = require('./send-body');

const arg = process.argv[2] ?? '{}';
const scenario = JSON.parse(arg.startsWith('@') ? readFileSync(arg.slice(1), 'utf8') : arg);
const connections = scenario.connections ?? 64;
const TIMEOUT_MS = 10_000;
const target = new URL(scenario.url);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function newStats() {
  return { requests: 0, ok: 0, non2xx: 0, socket_errors: 0, timeouts: 0, statuses: {}, latencies: [] };
}

/**
 * One keep-alive HTTP/1.1 connection carrying one request at a time. Written on net directly
 * (node:http's client costs about 0.2 ms of CPU a request here, which on 2 cores is taken from
 * the server): a request is one write, a response is read up to its Content-Length (or a
 * chunked body's last chunk); the server closing or failing the connection fails the request
 * on it and the connection reconnects.
 */
class Connection {
  constructor() {
    this.pending = null; // { started, stats }
    this.connect();
  }

  connect() {
    this.buffer = Buffer.alloc(0);
    const socket = net.connect({ host: target.hostname, port: Number(target.port), noDelay: true });
    this.socket = socket;
    socket.on('connect', () => becameIdle(this));
    socket.on('data', (chunk) => this.receive(chunk));
    socket.on('error', () => {}); // 'close' follows
    socket.on('close', () => {
      const at = idle.indexOf(this);
      if (at >= 0) idle.splice(at, 1);
      this.fail('socket_errors');
      setTimeout(() => this.connect(), 10);
    });
  }

  send(request, started, stats, key) {
    this.pending = { started, stats, key };
    this.socket.write(request, 'latin1');
  }

  receive(chunk) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const headerEnd = this.buffer.indexOf('\r\n\r\n');
    if (headerEnd < 0 || !this.pending) return;
    const head = this.buffer.toString('latin1', 0, headerEnd);
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    let end = headerEnd + 4;
    if (length) end += Number(length[1]);
    else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      const last = this.buffer.indexOf('\r\n0\r\n\r\n', headerEnd);
      end = last < 0 ? Infinity : last + 7;
    }
    if (this.buffer.length < end) return;
    const body = scenario.collect ? this.buffer.toString('utf8', headerEnd + 4, end) : '';
    this.buffer = this.buffer.subarray(end);
    const { started, stats, key } = this.pending;
    this.pending = null;
    const status = Number(head.slice(9, 12));
    stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
    if (status >= 200 && status < 300) {
      stats.ok += 1;
      stats.latencies.push(performance.now() - started);
      if (scenario.collect) {
        const answer = JSON.parse(body);
        collected.push({ id: answer.id, code: answer.test_code, key });
      }
    } else stats.non2xx += 1;
    if (/\r\nconnection:\s*close/i.test(head)) this.socket.destroy();
    else becameIdle(this);
  }

  /** Counts the request in flight, if any, as failed (under `kind`). */
  fail(kind) {
    if (!this.pending) return;
    this.pending.stats[kind] += 1;
    this.pending = null;
  }

  checkTimeout(now) {
    if (this.pending && now - this.pending.started > TIMEOUT_MS) {
      this.fail('timeouts');
      this.socket.destroy();
    }
  }
}

let sent = 0;
/** Connected connections with nothing in flight. */
const idle = [];
/** Fixed mode's sends that found every connection busy, oldest first: { started, stats }. */
const waiting = [];
const host = `${target.hostname}:${target.port}`;

/**
 * The n-th request: a send (default); with `request: 'verify-create'` a verification to the n-th
 * number (its answer's id and test_code kept when `collect` is set); with `'verify-check'` a
 * check of the n-th of `checks` with its code, under the key that created it.
 */
function request(n) {
  let path = '/v1/messages';
  let body;
  let key = scenario.keys[n % scenario.keys.length];
  if (scenario.request === 'verify-create') {
    path = '/v1/verifications';
    body = JSON.stringify({ to: `+23324${String(1000000 + (n % 9000000)).padStart(7, '0')}`, sender_id: 'BenchShop' });
  } else if (scenario.request === 'verify-check') {
    const check = scenario.checks[n % scenario.checks.length];
    path = `/v1/verifications/${check.id}/check`;
    key = check.key;
    body = JSON.stringify({ code: check.code });
  } else body = sendBody(n);
  return `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAuthorization: Bearer ${key}\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
}

/** What `collect` keeps of each 2xx answer of a verify-create: enough to check its code later. */
const collected = [];

/** The key the n-th request is sent with (a check's is its verification's). */
const keyOf = (n) => (scenario.request === 'verify-check' ? scenario.checks[n % scenario.checks.length].key : scenario.keys[n % scenario.keys.length]);

function becameIdle(connection) {
  const next = waiting.shift();
  if (next) {
    const n = sent++;
    connection.send(request(n), next.started, next.stats, keyOf(n));
  } else idle.push(connection);
}

const all = Array.from({ length: connections }, () => new Connection());
const timeouts = setInterval(() => {
  const now = performance.now();
  for (const connection of all) connection.checkTimeout(now);
}, 1000);
timeouts.unref();

/** Sends now on an idle connection, or queues the send when `queue`; false when it did neither. */
function send(stats, { queue }) {
  const connection = idle.pop();
  if (connection) {
    const n = sent++;
    connection.send(request(n), performance.now(), stats, keyOf(n));
  } else if (queue) waiting.push({ started: performance.now(), stats });
  else return false;
  stats.requests += 1;
  return true;
}

const inFlight = () => waiting.length + all.filter((c) => c.pending).length;

/** Waits until every connection is open, so that no send's latency includes a connect. */
async function connected() {
  const deadline = performance.now() + 10_000;
  while (idle.length < connections) {
    if (performance.now() > deadline) throw new Error(`only ${idle.length} of ${connections} connections to ${scenario.url} opened in 10 s`);
    await sleep(5);
  }
}

async function inFlightDone() {
  while (inFlight() > 0) await sleep(5);
}

/** The request figures of a phase, in load.js's shape. */
function summary(stats, seconds) {
  const sorted = stats.latencies.sort((a, b) => a - b);
  const pick = (q) => (sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] * 10) / 10 : null);
  return {
    requests: stats.requests,
    rps: Math.round((stats.ok / seconds) * 10) / 10,
    duration_s: Math.round(seconds * 10) / 10,
    p50_ms: pick(0.5),
    p99_ms: pick(0.99),
    max_ms: sorted.length ? Math.round(sorted.at(-1) * 10) / 10 : null,
    ok: stats.ok,
    non2xx: stats.non2xx,
    socket_errors: stats.socket_errors,
    timeouts: stats.timeouts,
    statuses: stats.statuses,
  };
}

async function fixed() {
  const { rate, amount } = scenario;
  const stats = newStats();
  await connected();
  const started = performance.now();
  await new Promise((resolve) => {
    const pacer = setInterval(() => {
      const due = Math.min(amount, Math.floor(((performance.now() - started) * rate) / 1000) + 1);
      while (stats.requests < due) send(stats, { queue: true });
      if (stats.requests >= amount) {
        clearInterval(pacer);
        resolve();
      }
    }, 1);
  });
  await inFlightDone();
  const result = { rate, connections, ...summary(stats, (performance.now() - started) / 1000) };
  return scenario.collect ? { ...result, collected } : result;
}

/**
 * The settle controller, once a second: keep about BACKLOG_SECONDS of settlement waiting, so
 * the service always has work and never more than it finishes in a moment. While the backlog
 * is under that, the service keeps up and the rate grows (up to MAX_GROWTH a second, less as
 * the backlog nears its target); above it, the rate drops to what settled in the last second
 * minus the excess spread over CORRECTION_SECONDS.
 */
const BACKLOG_SECONDS = 1;
const MIN_BACKLOG = 50;
const MAX_GROWTH = 1.5;
const CORRECTION_SECONDS = 2;
const MIN_RATE = 20;

function nextRate({ rate, sentPerS, settledPerS, backlog }) {
  const wanted = Math.max(MIN_BACKLOG, settledPerS * BACKLOG_SECONDS);
  if (backlog <= wanted) {
    const grown = rate * (1 + (MAX_GROWTH - 1) * (1 - backlog / wanted));
    // Not far above what actually went out: when the connections are the limit, more rate is only more skipped sends.
    return Math.max(MIN_RATE, Math.min(grown, Math.max(sentPerS, MIN_RATE) * MAX_GROWTH));
  }
  return Math.max(MIN_RATE, settledPerS / 4, settledPerS - (backlog - wanted) / CORRECTION_SECONDS);
}

async function settle() {
  const { warmup, window: windowSeconds, observe, drainMax, startRate } = scenario;
  const counter = settlementCounter(scenario.dataDir);
  try {
    await connected();
    const trace = [];
    const warmupStats = newStats();
    const windowStats = newStats();
    let stats = warmupStats;
    let rate = startRate;
    let credit = 0;
    let clientLimited = 0;
    let paced = performance.now();
    const pacer = setInterval(() => {
      const now = performance.now();
      // A late timer catches up, but at most 50 ms of sends at once.
      credit = Math.min(credit + (rate * (now - paced)) / 1000, Math.max(1, rate / 20));
      paced = now;
      while (credit >= 1 && send(stats, { queue: false })) credit -= 1;
      if (credit >= 1) {
        clientLimited += Math.floor(credit); // every connection busy: this send does not happen
        credit -= Math.floor(credit);
      }
    }, 1);

    const started = performance.now();
    let last = { at: started, sent: 0, ...counter.read() };
    let windowStart;
    let cpuStart;
    const rates = [];
    const startWindow = (at) => {
      windowStart = at;
      cpuStart = treeCpuSeconds(scenario.serverPid);
      stats = windowStats;
    };
    if (warmup === 0) startWindow(last);
    for (let tick = 1; tick <= warmup + windowSeconds; tick++) {
      await sleep(started + tick * 1000 - performance.now());
      const now = { at: performance.now(), sent, ...counter.read() };
      const seconds = (now.at - last.at) / 1000;
      const perS = (key) => Math.round((now[key] - last[key]) / seconds);
      const okSoFar = warmupStats.ok + windowStats.ok;
      if (tick >= 3 && now.accepted === 0 && okSoFar > 0) throw new Error(noAcceptedEvents(okSoFar));
      trace.push({ t: tick, rate: Math.round(rate), sent_per_s: perS('sent'), accepted_per_s: perS('accepted'), settled_per_s: perS('settled'), backlog: now.backlog });
      if (tick > warmup) rates.push(rate);
      rate = nextRate({ rate, sentPerS: perS('sent'), settledPerS: perS('settled'), backlog: now.backlog });
      last = now;
      if (tick === warmup) startWindow(now);
    }
    clearInterval(pacer);
    await inFlightDone();
    const end = { at: performance.now(), ...counter.read() };
    const cpuEnd = treeCpuSeconds(scenario.serverPid);
    const seconds = (end.at - windowStart.at) / 1000;
    const settled = end.settled - windowStart.settled;

    // The backlog after the load: at `observe` seconds, and when (if) it reaches zero.
    let backlogAfterObserve = null;
    let drainedAfter = end.backlog === 0 ? 0 : null;
    while (backlogAfterObserve === null || drainedAfter === null) {
      const elapsed = (performance.now() - end.at) / 1000;
      if (elapsed >= drainMax) break;
      await sleep(100);
      const { backlog } = counter.read();
      const now = (performance.now() - end.at) / 1000;
      if (drainedAfter === null && backlog === 0) drainedAfter = Math.round(now * 10) / 10;
      if (backlogAfterObserve === null && now >= observe) backlogAfterObserve = backlog;
    }
    return {
      ...summary(windowStats, seconds),
      warmup_s: warmup,
      window_s: Math.round(seconds * 10) / 10,
      accepted: end.accepted - windowStart.accepted,
      settled,
      accepted_per_s: Math.round((end.accepted - windowStart.accepted) / seconds),
      settled_per_s: Math.round(settled / seconds),
      rate: { start: startRate, mean: Math.round(rates.reduce((a, b) => a + b, 0) / rates.length), min: Math.round(Math.min(...rates)), max: Math.round(Math.max(...rates)) },
      client_limited_sends: clientLimited,
      warmup_sends: summary(warmupStats, warmup),
      backlog_at_end: end.backlog,
      backlog_after_observe: backlogAfterObserve,
      observe_s: observe,
      drained_after_s: drainedAfter,
      drain_watch_s: drainMax,
      cpu_ms_per_settled: cpuStart === null || cpuEnd === null || settled === 0 ? null : Math.round(((cpuEnd - cpuStart) * 1e5) / settled) / 100,
      trace,
    };
  } finally {
    counter.close();
  }
}

(scenario.mode === 'settle' ? settle() : fixed())
  .then((result) => {
    // Exit once written: a large answer (collected codes) is more than a pipe takes at once.
    process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
  })
  .catch((error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exit(1);
  });
