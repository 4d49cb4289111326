import { connect, Socket } from 'node:net';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * One HTTP/1.1 request written by hand on its own connection, so a test can send the headers of a
 * large body and then as much of it as it likes, or nothing, and see what the server does:
 * whether it answers without the body, and whether it closes the connection.
 */
export class RawRequest {
  private readonly socket: Socket;
  private received = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  private closedFlag = false;
  /** Resolves when the server closes (or resets) the connection. */
  readonly closed: Promise<void>;

  /** `head`: the request line and headers; the blank line that ends them is added unless `endHead` is false. */
  constructor(baseUrl: string, head: string, options: { endHead?: boolean } = {}) {
    const { hostname, port } = new URL(baseUrl);
    this.socket = connect({ host: hostname, port: Number(port) });
    this.socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.wake();
    });
    this.socket.on('error', () => {}); // a reset is a close here; 'close' follows
    this.closed = new Promise((resolve) =>
      this.socket.on('close', () => {
        this.closedFlag = true;
        this.wake();
        resolve();
      }),
    );
    const lines = head.replace(/\r?\n/g, '\r\n').replace(/(\r\n)*$/, '');
    this.socket.write(options.endHead === false ? `${lines}\r\n` : `${lines}\r\n\r\n`);
  }

  /** Sends part of the body; false when the connection is already gone. */
  send(data: string | Buffer): boolean {
    if (this.closedFlag || this.socket.destroyed) return false;
    this.socket.write(data);
    return true;
  }

  get isClosed(): boolean {
    return this.closedFlag;
  }

  /**
   * The server's answer once it has arrived in full (its Content-Length), or the reason it did
   * not within `withinMs` (a bound to fail by, not a speed being measured).
   */
  async response(withinMs = 15_000): Promise<RawResponse> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const parsed = parseResponse(this.received);
      if (parsed) return parsed;
      if (this.closedFlag)
        throw new Error(`the connection closed without a full answer: ${this.received.toString()}`);
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `no answer within ${withinMs} ms (received: ${this.received.toString() || 'nothing'})`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for the server to close the connection; rejects after `withinMs`. */
  async closedWithin(withinMs = 15_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.closed,
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the connection was still open after ${withinMs} ms`)),
          withinMs,
        );
      }),
    ]).finally(() => clearTimeout(timer));
  }

  destroy(): void {
    this.socket.destroy();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

function parseResponse(data: Buffer): RawResponse | null {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  if (data.length < end + 4 + length) return null;
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: data.subarray(end + 4, end + 4 + length).toString('utf8'),
  };
}
