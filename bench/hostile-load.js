'use strict';
/**
 * Scenario 10's load processes (bench/run.js, BENCH_ONLY=hostile): one tenant (the victim) sends
 * single messages at a steady rate while another (the attacker, a free TEST key) sends its worst
 * bodies at its rate limit, each from a process of its own (so the attacker's writes do not
 * delay the victim's clock), neither the server's. Prints one JSON line: the victim's answer
 * times, or the attack's answers, or for `slow` the server memory held by stalled uploads and
 * how many the server closed, or for `costs` what each body costs the server alone.
 *
 * Scenario: { url, seconds, serverPid, victim: { key, rate } } or
 * { url, seconds, serverPid, attack: { kind, key, rate, concurrency, uploads } } or
 * { url, warmUp: { key } }
 * Attack kinds (every body as large as its route takes):
 *  - shape: 2 MiB batches of one item with as many keys as fit (~240,000), and of one item
 *    nested a million levels deep, in turn (issue 28, item 1).
 *  - refused: batches of 1,000 items, every one refused (issue 28, item 2).
 *  - unauthenticated: the shape bodies with an unknown key, and 6 MiB "Send to many" confirm
 *    forms without a session, in turn.
 *  - slow: `uploads` of each unauthenticated body, 90% sent and then stalled (issue 28, item 5);
 *    no victim.
 *  - costs: each body above once, one after the other on the idle server: its answer time and
 *    the server's CPU for it; no victim.
 */
const http = require('node:http');
const net = require('node:net');
const { readFileSync } = require('node:fs');
const { performance } = require('node:perf_hooks');
const { treeCpuSeconds, treeRssKb } = require('./proc-tree');
const { sendBody } = require('./send-body');

const arg = process.argv[2] ?? '{}';
const scenario = JSON.parse(arg.startsWith('@') ? readFileSync(arg.slice(1), 'utf8') : arg);
const target = new URL(scenario.url);
const TIMEOUT_MS = 10_000;
const MiB = 1024 * 1024;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const BATCH_HEAD = '{"sender_id":"BenchShop","type":"transactional","message":"Hello","messages":[';

/** One batch item with as many distinct keys as 2 MiB holds. */
function manyKeysBody() {
  const parts = [];
  let size = BATCH_HEAD.length + 4;
  for (let i = 0; size < 2 * MiB - 32; i++) {
    const part = `"k${i}":0`;
    parts.push(part);
    size += part.length + 1;
  }
  return Buffer.from(`${BATCH_HEAD}{${parts.join(',')}}]}`);
}

/** One batch item whose `to` nests as deep as 2 MiB allows. */
function deepBody() {
  const depth = Math.floor((2 * MiB - BATCH_HEAD.length - 16) / 2);
  return Buffer.from(`${BATCH_HEAD}{"to":${'['.repeat(depth)}${']'.repeat(depth)}}]}`);
}

/** 1,000 items, each refused (a destination without a route). */
function refusedBody() {
  const items = Array.from({ length: 1000 }, (_, i) => `{"to":"+4479111${String(i).padStart(5, '0')}"}`);
  return Buffer.from(`${BATCH_HEAD}${items.join(',')}]}`);
}

/** The console's "Send to many" confirm as large as its route takes, urlencoded. */
function consoleFormBody() {
  return Buffer.from(`_csrf=x&_once=y&sender_id=BenchShop&type=transactional&csv=${'a'.repeat(6 * MiB)}`);
}

const json = { 'content-type': 'application/json' };
const bearer = (key) => ({ authorization: `Bearer ${key}` });
const unknownKey = `sms_test_${'x'.repeat(40)}`;

function attackRequests(attack) {
  const batch = (body, key) => ({ path: '/v1/messages/batch', headers: { ...json, ...bearer(key) }, body });
  const form = { path: '/console/send-many', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: consoleFormBody() };
  switch (attack.kind) {
    case 'shape':
      return [batch(manyKeysBody(), attack.key), batch(deepBody(), attack.key)];
    case 'refused':
      return [batch(refusedBody(), attack.key)];
    case 'unauthenticated':
    case 'slow':
      return [batch(manyKeysBody(), unknownKey), form];
    default:
      throw new Error(`unknown attack ${attack.kind}`);
  }
}

function request(agent, { path, headers, body }, timeoutMs = TIMEOUT_MS) {
  return new Promise((resolve) => {
    const req = http.request(
      { host: target.hostname, port: Number(target.port), method: 'POST', path, agent, timeout: timeoutMs, headers: { ...headers, 'content-length': body.length } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.statusCode)));
        res.on('error', () => resolve('socket_error'));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error) => resolve(error.message === 'timeout' ? 'timeout' : 'socket_error'));
    req.end(body);
  });
}

const count = (statuses, status) => (statuses[status] = (statuses[status] ?? 0) + 1);

/** The victim: single sends at `rate`, each timed from when it was due (open loop). */
async function victim({ key, rate }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const latencies = [];
  const statuses = {};
  const started = performance.now();
  const inFlight = [];
  for (let n = 0; ; n++) {
    const due = started + (n * 1000) / rate;
    if (due - started >= scenario.seconds * 1000) break;
    await sleep(Math.max(0, due - performance.now()));
    inFlight.push(
      request(agent, { path: '/v1/messages', headers: { ...json, ...bearer(key) }, body: Buffer.from(sendBody(n)) }).then((status) => {
        latencies.push(status === 'timeout' ? TIMEOUT_MS : performance.now() - due);
        count(statuses, status);
      }),
    );
  }
  await Promise.all(inFlight);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pick = (q) => (latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] * 10) / 10 : null);
  return { requests: latencies.length, p50_ms: pick(0.5), p99_ms: pick(0.99), max_ms: pick(1), statuses };
}

/** The attacker: its bodies in turn at `rate`, at most `concurrency` at once (the rest skipped). */
async function attacker(attack) {
  const bodies = attackRequests(attack);
  const agent = new http.Agent({ keepAlive: true, maxSockets: attack.concurrency });
  const statuses = {};
  let busy = 0;
  let skipped = 0;
  const inFlight = [];
  const started = performance.now();
  for (let n = 0; performance.now() - started < scenario.seconds * 1000; n++) {
    await sleep(Math.max(0, started + (n * 1000) / attack.rate - performance.now()));
    if (busy >= attack.concurrency) {
      skipped++;
      continue;
    }
    busy++;
    inFlight.push(
      request(agent, bodies[n % bodies.length]).then((status) => {
        busy--;
        count(statuses, status);
      }),
    );
  }
  // What is still in flight after the window is abandoned: its answer may never come.
  agent.destroy();
  return { sent: inFlight.length, skipped, statuses, mb_per_request: Math.round((bodies[0].body.length / MiB) * 10) / 10 };
}

/** Stalled uploads: each body 90% sent, then nothing; the server's memory and closings watched. */
async function slowUploads(attack) {
  const before = treeRssKb(scenario.serverPid);
  const sockets = [];
  let closed = 0;
  const closedAt = [];
  const opened = performance.now();
  for (const { path, headers, body } of attackRequests(attack)) {
    for (let i = 0; i < attack.uploads; i++) {
      const socket = net.connect({ host: target.hostname, port: Number(target.port) });
      // Read (and drop) whatever the server answers, so its closing is seen.
      socket.resume();
      socket.on('error', () => {});
      socket.on('close', () => {
        closed++;
        closedAt.push(performance.now() - opened);
      });
      const head = [`POST ${path} HTTP/1.1`, `Host: ${target.host}`, ...Object.entries({ ...headers, 'content-length': body.length }).map(([k, v]) => `${k}: ${v}`)];
      socket.write(`${head.join('\r\n')}\r\n\r\n`);
      socket.write(body.subarray(0, Math.floor(body.length * 0.9)));
      sockets.push(socket);
    }
  }
  await sleep(5000);
  const heldKb = treeRssKb(scenario.serverPid) - before;
  const closedAfter5s = closed;
  const deadline = performance.now() + 40_000;
  while (closed < sockets.length && performance.now() < deadline) await sleep(250);
  for (const socket of sockets) socket.destroy();
  closedAt.sort((a, b) => a - b);
  return {
    uploads: sockets.length,
    held_mb_after_5s: Math.round(heldKb / 1024),
    closed_within_5s: closedAfter5s,
    closed_within_45s: closedAt.length,
    last_closed_after_s: closedAt.length ? Math.round(closedAt[closedAt.length - 1] / 100) / 10 : null,
  };
}

/** Each body once, on the idle server: answer time (client) and the server's CPU for it. */
async function costs(attack) {
  const agent = new http.Agent({ keepAlive: false });
  const named = {
    many_keys: { path: '/v1/messages/batch', headers: { ...json, ...bearer(attack.key) }, body: manyKeysBody() },
    deep: { path: '/v1/messages/batch', headers: { ...json, ...bearer(attack.key) }, body: deepBody() },
    refused: { path: '/v1/messages/batch', headers: { ...json, ...bearer(attack.key) }, body: refusedBody() },
    unknown_key: { path: '/v1/messages/batch', headers: { ...json, ...bearer(unknownKey) }, body: manyKeysBody() },
    console_signed_out: attackRequests({ kind: 'unauthenticated' })[1],
  };
  const result = {};
  for (const [name, req] of Object.entries(named)) {
    const cpu = treeCpuSeconds(scenario.serverPid);
    const started = performance.now();
    const status = await request(agent, req, 120_000);
    result[name] = {
      status,
      answer_ms: Math.round(performance.now() - started),
      server_cpu_ms: Math.round((treeCpuSeconds(scenario.serverPid) - cpu) * 1000),
    };
    await sleep(500);
  }
  return result;
}

/**
 * Before a phase, a third merchant's key takes each path once with a small body (a send, a
 * batch of refused numbers abroad, a bad key, a console form), so the phase measures a warm
 * server: the first number abroad loads libphonenumber's metadata, which no attacker can make
 * the server do twice.
 */
async function warmUp({ key }) {
  const agent = new http.Agent({ keepAlive: false });
  const items = Array.from({ length: 10 }, (_, i) => `{"to":"+4479111${String(i).padStart(5, '0')}"}`);
  const small = [
    { path: '/v1/messages', headers: { ...json, ...bearer(key) }, body: Buffer.from(sendBody(0)) },
    { path: '/v1/messages/batch', headers: { ...json, ...bearer(key) }, body: Buffer.from(`${BATCH_HEAD}${items.join(',')}]}`) },
    { path: '/v1/messages/batch', headers: { ...json, ...bearer(unknownKey) }, body: Buffer.from(`${BATCH_HEAD}{"to":"+233241234567"}]}`) },
    { path: '/console/send-many', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: Buffer.from('_csrf=x') },
  ];
  const statuses = {};
  for (const req of small) count(statuses, await request(agent, req, 60_000));
  await sleep(1000);
  return { statuses };
}

async function main() {
  if (scenario.warmUp) return { warm_up: await warmUp(scenario.warmUp) };
  const attack = scenario.attack;
  if (attack?.kind === 'slow') return { slow: await slowUploads(attack) };
  if (attack?.kind === 'costs') return { costs: await costs(attack) };
  if (attack) return { attack: await attacker(attack) };
  return { victim: await victim(scenario.victim) };
}

main().then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
