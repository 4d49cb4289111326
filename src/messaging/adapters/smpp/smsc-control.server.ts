import { timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { SmscSimulator } from './smsc-simulator';

/** A control request's body: an inbound message is a few hundred bytes. */
export const MAX_CONTROL_BODY_BYTES = 4096;

const LOOPBACK = '127.0.0.1';
const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

export interface SmscControlOptions {
  readonly port: number;
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token: string;
}

/**
 * The SMSC simulator's control port (`npm run smsc`): `POST /inbound {"from","to","message"}`
 * makes the simulator deliver that inbound message to the bound service. It is a developer's
 * tool, but it runs beside a browser: it listens on loopback only, and takes a request only
 * with the token, as JSON (what a web page can POST without a preflight, text/plain or a form,
 * is refused), without an Origin (a browser's cross-origin request), with a loopback Host (a
 * DNS-rebinding page names its own host), and with a body of at most 4 KiB, read no further.
 */
export function startSmscControl(
  simulator: Pick<SmscSimulator, 'sendInbound'>,
  options: SmscControlOptions,
): Promise<Server> {
  const expected = Buffer.from(`Bearer ${options.token}`);
  const server = createServer((req, res) => {
    const answer = (status: number, body: object) => {
      res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify(body));
    };
    const refusal = refuse(req, expected);
    if (refusal) {
      answer(refusal.status, { error: refusal.error }); // the body is never read: the connection closes
      return;
    }
    readBody(req, res, answer, (text) => {
      let body: { from?: unknown; to?: unknown; message?: unknown };
      try {
        body = JSON.parse(text);
      } catch {
        return answer(400, { error: 'the body must be JSON' });
      }
      const { from, to, message } = body ?? {};
      if (typeof from !== 'string' || typeof to !== 'string' || typeof message !== 'string')
        return answer(400, { error: 'from, to and message are required strings' });
      simulator.sendInbound({ from, to, message }).then(
        (status) => answer(200, { status }),
        (error: Error) => answer(409, { error: error.message }),
      );
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, LOOPBACK, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

function refuse(req: IncomingMessage, expected: Buffer): { status: number; error: string } | null {
  if (req.method !== 'POST' || req.url !== '/inbound') return { status: 404, error: 'POST /inbound only' };
  const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
  if (!LOOPBACK_NAMES.has(host)) return { status: 403, error: 'only 127.0.0.1 or localhost' };
  if (req.headers.origin !== undefined || req.headers['sec-fetch-site'] === 'cross-site')
    return { status: 403, error: 'no requests from web pages' };
  const given = Buffer.from(req.headers.authorization ?? '');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { status: 401, error: 'Authorization: Bearer <SMSC_CONTROL_TOKEN> required' };
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') return { status: 415, error: 'Content-Type: application/json only' };
  if (Number(req.headers['content-length'] ?? 0) > MAX_CONTROL_BODY_BYTES)
    return { status: 413, error: `at most ${MAX_CONTROL_BODY_BYTES} bytes` };
  return null;
}

/** The body as text, or a 413 (and no more reading) past the limit, however it is sent. */
function readBody(
  req: IncomingMessage,
  res: ServerResponse,
  answer: (status: number, body: object) => void,
  then: (text: string) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_CONTROL_BODY_BYTES) {
      // Answered at once and read no further: the connection closes after the answer.
      if (!res.headersSent) answer(413, { error: `at most ${MAX_CONTROL_BODY_BYTES} bytes` });
      req.pause();
      req.removeAllListeners('data');
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (size <= MAX_CONTROL_BODY_BYTES) then(Buffer.concat(chunks).toString('utf8'));
  });
}
