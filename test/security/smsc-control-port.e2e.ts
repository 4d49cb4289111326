import { ChildProcess, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/test-app';

/**
 * Issue 28, item 10: `npm run smsc`'s control port (`POST /inbound`, which makes the simulator
 * deliver an inbound message to the bound service). It took any body of any size from anyone who
 * could reach it, including a web page in the developer's browser (a cross-origin `text/plain`
 * form POST needs no preflight). Now: loopback only, a token, JSON only, no Origin, a loopback
 * Host (against DNS rebinding), 4 KiB at most. The simulator runs as `npm run smsc` would start it.
 */
jest.setTimeout(120_000);

const ROOT = join(__dirname, '..', '..');
const TOKEN = 'control-token-for-the-test-0123456789';

interface Answer {
  readonly status: number;
  readonly body: string;
}

describe('the SMSC simulator control port', () => {
  let child: ChildProcess;
  let port: number;
  let output = '';

  beforeAll(async () => {
    port = await freePort();
    child = spawn(
      process.execPath,
      [
        '-r',
        'ts-node/register/transpile-only',
        join(ROOT, 'src/messaging/adapters/smpp/smsc-simulator.main.ts'),
      ],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          SMSC_PORT: '0',
          SMSC_HOST: '127.0.0.1',
          SMSC_CONTROL_PORT: String(port),
          SMSC_CONTROL_TOKEN: TOKEN,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    await new Promise<void>((resolve, reject) => {
      const check = setInterval(() => {
        if (output.includes('/inbound')) {
          clearInterval(check);
          resolve();
        } else if (child.exitCode !== null) {
          clearInterval(check);
          reject(new Error(`the simulator exited: ${output}`));
        }
      }, 50);
    });
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(child.pid as number, 'SIGTERM');
      await exited;
    }
  });

  function post(options: {
    host?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    path?: string;
    method?: string;
  }): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: options.host ?? '127.0.0.1',
          port,
          method: options.method ?? 'POST',
          path: options.path ?? '/inbound',
          headers: options.headers ?? {},
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      // The server may answer (and close) before a large body is sent: that is an answer too.
      req.on('error', reject);
      req.end(options.body);
    });
  }

  const inbound = JSON.stringify({ from: '+233241234567', to: '+233501234567', message: 'STOP' });
  const json = { 'content-type': 'application/json' };
  const bearer = { authorization: `Bearer ${TOKEN}` };

  it('refuses a request without the token, or with another one (401)', async () => {
    expect((await post({ headers: json, body: inbound })).status).toBe(401);
    expect((await post({ headers: { ...json, authorization: 'Bearer nope' }, body: inbound })).status).toBe(
      401,
    );
  });

  it('refuses what a web page can send without a preflight: text/plain and forms (415)', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])
      expect((await post({ headers: { ...bearer, 'content-type': type }, body: inbound })).status).toBe(415);
  });

  it('refuses a request a browser sends from another origin, and a name other than loopback (403)', async () => {
    const fromPage = await post({
      headers: { ...json, ...bearer, origin: 'http://evil.example' },
      body: inbound,
    });
    expect(fromPage.status).toBe(403);
    // DNS rebinding: evil.example resolved to 127.0.0.1, the Host header still says evil.example.
    const rebound = await post({
      headers: { ...json, ...bearer, host: `evil.example:${port}` },
      body: inbound,
    });
    expect(rebound.status).toBe(403);
  });

  it('refuses a body over 4 KiB (413), declared or not', async () => {
    const big = JSON.stringify({
      from: '+233241234567',
      to: '+233501234567',
      message: 'x'.repeat(1_000_000),
    });
    expect((await post({ headers: { ...json, ...bearer }, body: big })).status).toBe(413);
    const chunked = { ...json, ...bearer, 'transfer-encoding': 'chunked' };
    expect((await post({ headers: chunked, body: big })).status).toBe(413);
    // Without the token a big body is refused before it is read.
    expect((await post({ headers: json, body: big })).status).toBe(401);
  });

  it('takes the token-bearing JSON request (no session bound here: 409 from the simulator itself)', async () => {
    const answer = await post({ headers: { ...json, ...bearer }, body: inbound });
    expect(answer).toEqual({
      status: 409,
      body: JSON.stringify({ error: 'No bound session to deliver to' }),
    });
  });

  it('listens on loopback only', async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === 'IPv4' && !address.internal);
    if (!external) {
      console.warn('no non-loopback IPv4 address on this machine: the loopback-only check is skipped');
      return;
    }
    await expect(
      post({ host: external.address, headers: { ...json, ...bearer }, body: inbound }),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});
