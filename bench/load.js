'use strict';
/**
 * The load generator, run by bench/run.js as its own process so the client never shares an
 * event loop with the server. Reads one JSON scenario from argv[2] (or a file path prefixed
 * with @), drives it with autocannon and prints one JSON line with the results.
 *
 * Scenario: { url, kind: 'get' | 'sends' | 'reads', connections, duration?, amount?,
 *   path?, keys?: string[], reads?: [keyIndex, id][], collectIds?: number, to?: string }
 * Paced sends (a rate rather than as many as the connections carry) are paced-load.js's.
 */
const autocannon = require('autocannon');
const { readFileSync } = require('node:fs');
const { sendBody } = require('./send-body');

const arg = process.argv[2] ?? '{}';
const scenario = JSON.parse(arg.startsWith('@') ? readFileSync(arg.slice(1), 'utf8') : arg);

let next = 0;
const collected = [];
const collectLimit = scenario.collectIds ?? 0;

function sendRequest(keys) {
  return (request) => {
    const keyIndex = next++ % keys.length;
    return {
      ...request,
      method: 'POST',
      path: '/v1/messages',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${keys[keyIndex]}`,
        'x-bench-key': String(keyIndex),
      },
      body: sendBody(next, scenario.to),
    };
  };
}

function readRequest(keys, reads) {
  return (request) => {
    const [keyIndex, id] = reads[next++ % reads.length];
    return { ...request, method: 'GET', path: `/v1/messages/${id}`, headers: { authorization: `Bearer ${keys[keyIndex]}` } };
  };
}

const requests =
  scenario.kind === 'sends'
    ? [{ setupRequest: sendRequest(scenario.keys) }]
    : scenario.kind === 'reads'
      ? [{ setupRequest: readRequest(scenario.keys, scenario.reads) }]
      : [{ method: 'GET', path: scenario.path ?? '/' }];

const ID = /"id"\s*:\s*"(msg_[^"]+)"/;

// The key index of a send is not echoed by the server, so remember it per connection instead.
if (scenario.kind === 'sends' && collectLimit) {
  const setup = requests[0].setupRequest;
  requests[0].setupRequest = (request, context) => {
    const built = setup(request);
    context.keyIndex = Number(built.headers['x-bench-key']);
    return built;
  };
  requests[0].onResponse = (status, body, context) => {
    if (collected.length >= collectLimit || status !== 200) return;
    const match = ID.exec(body);
    if (match) collected.push([context.keyIndex, match[1]]);
  };
}

const instance = autocannon(
  {
    url: scenario.url,
    connections: scenario.connections ?? 64,
    duration: scenario.duration ?? 10,
    amount: scenario.amount,
    timeout: 10,
    requests,
  },
  (error, result) => {
    if (error) {
      process.stdout.write(`${JSON.stringify({ error: String(error) })}\n`);
      process.exit(1);
    }
    const statuses = {};
    for (const [code, count] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = count.count;
    process.stdout.write(
      `${JSON.stringify({
        requests: result.requests.total,
        rps: result.requests.average,
        duration_s: result.duration,
        p50_ms: result.latency.p50,
        p99_ms: result.latency.p99,
        max_ms: result.latency.max,
        ok: result['2xx'],
        non2xx: result.non2xx,
        socket_errors: result.errors,
        timeouts: result.timeouts,
        statuses,
        ids: collected,
      })}\n`,
    );
  },
);
process.once('SIGINT', () => instance.stop());
