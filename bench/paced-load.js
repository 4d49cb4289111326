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
 * Scenario: { url, keys, connections, mode: 'fixed' | 'settle', ... }
 *  - fixed: `amount` sends at `rate`/s. Open loop: when all connections are busy a send waits
 *    for one, and that wait is part of its latency.
 *  - settle: the rate follows what the service settles (see nextRate), for `warmup` seconds and
 *    then a measured `window`; it needs `dataDir` (the server's, for bench/settlement.js) and
 *    `serverPid` (for the CPU of the server's process tree over the window). After the load it
 *    watches the backlog for `observe` seconds, and on until it drains or `drainMax` seconds.
 */
const http = require('node:http');
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
// noDelay: Nagle's algorithm on the client's sockets holds back a request for the server's delayed ACK (40 ms).
const agent = new http.Agent({ keepAlive: true, noDelay: true, maxSockets: connections, maxFreeSockets: connections });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function newStats() {
  return { requests: 0, ok: 0, non2xx: 0, socket_errors: 0, timeouts: 0, statuses: {}, latencies: [] };
}

let sent = 0;
let inFlight = 0;

/** One send; its outcome goes to `stats` (the phase it was sent in). */
function send(stats) {
  const keyIndex = sent % scenario.keys.length;
  const body = sendBody(++sent);
  stats.requests += 1;
  inFlight += 1;
  const started = performance.now();
  let finished = false;
  const finish = (outcome, status) => {
    if (finished) return;
    finished = true;
    inFlight -= 1;
    if (outcome === 'response') {
      stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
      if (status >= 200 && status < 300) {
        stats.ok += 1;
        stats.latencies.push(performance.now() - started);
      } else stats.non2xx += 1;
    } else if (outcome === 'timeout') stats.timeouts += 1;
    else stats.socket_errors += 1;
  };
  const request = http.request(
    {
      agent,
      host: target.hostname,
      port: target.port,
      method: 'POST',
      path: '/v1/messages',
      timeout: TIMEOUT_MS,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${scenario.keys[keyIndex]}` },
    },
    (response) => {
      response.on('end', () => finish('response', response.statusCode));
      response.on('error', () => finish('error'));
      response.resume();
    },
  );
  request.on('timeout', () => {
    finish('timeout');
    request.destroy();
  });
  request.on('error', () => finish('error'));
  request.end(body);
}

async function inFlightDone() {
  while (inFlight > 0) await sleep(5);
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
  const started = performance.now();
  await new Promise((resolve) => {
    const pacer = setInterval(() => {
      const due = Math.min(amount, Math.floor(((performance.now() - started) * rate) / 1000) + 1);
      while (sent < due) send(stats);
      if (sent >= amount) {
        clearInterval(pacer);
        resolve();
      }
    }, 1);
  });
  await inFlightDone();
  return { rate, connections, ...summary(stats, (performance.now() - started) / 1000) };
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
      while (credit >= 1 && inFlight < connections) {
        send(stats);
        credit -= 1;
      }
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
      if (tick === warmup) {
        windowStart = now;
        cpuStart = treeCpuSeconds(scenario.serverPid);
        stats = windowStats;
      }
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
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  })
  .catch((error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exit(1);
  });
