import { connect, PDU, PduOptions, Session } from 'smpp';

/**
 * The thin typed wrapper around one `smpp` library session (the library is untyped and never
 * calls a response callback once the socket is gone). Every request here settles exactly once:
 * with its response, with ConnectionClosedError when the connection goes, or with
 * ResponseTimeoutError.
 */
export class ConnectionClosedError extends Error {
  constructor(message = 'SMPP connection closed') {
    super(message);
    this.name = 'ConnectionClosedError';
  }
}

export class ResponseTimeoutError extends Error {
  constructor(command: string, timeoutMs: number) {
    super(`No response to ${command} within ${timeoutMs} ms`);
    this.name = 'ResponseTimeoutError';
  }
}

export type PduHandler = (pdu: PDU) => void;

export class SmppConnection {
  private readonly pending = new Set<(error: Error) => void>();
  private closed = false;
  private readonly closeHandlers: Array<(error: Error | null) => void> = [];
  private lastError: Error | null = null;
  private connected = false;

  /**
   * Wraps an existing library session (a server-side session, or one being connected). Over TLS
   * the connection is up once the handshake has verified the peer ('secureConnect'), not at TCP.
   */
  constructor(
    readonly session: Session,
    private readonly upEvent: 'connect' | 'secureConnect' = 'connect',
  ) {
    this.connected = !session.socket.connecting && upEvent === 'connect';
    session.once(upEvent, () => {
      this.connected = true;
    });
    session.on('error', (error: Error) => {
      // Socket errors and unparseable PDUs: the library's reader is wedged after a parse error,
      // so the only safe move is to drop the connection (the owner reconnects).
      this.lastError = error;
      session.destroy();
    });
    session.on('close', () => {
      if (this.closed) return;
      this.closed = true;
      const error = new ConnectionClosedError(
        this.lastError ? `SMPP connection closed: ${this.lastError.message}` : undefined,
      );
      for (const reject of [...this.pending]) reject(error);
      this.pending.clear();
      for (const handler of this.closeHandlers) handler(this.lastError);
    });
  }

  /**
   * Starts opening a connection to an SMSC, over TLS when `tls` is given (the certificate is
   * verified against the system's CAs, or only against `ca` when given); wait with whenConnected().
   */
  static open(host: string, port: number, tls: { readonly ca?: Buffer } | null = null): SmppConnection {
    if (!tls) return new SmppConnection(connect({ host, port }));
    return new SmppConnection(
      connect({ host, port, tls: true, rejectUnauthorized: true, ...(tls.ca ? { ca: tls.ca } : {}) }),
      'secureConnect',
    );
  }

  /** Resolves once the TCP connection is up; rejects when it fails or after timeoutMs. */
  whenConnected(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.connected) {
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        this.destroy();
        reject(new Error(`TCP connect timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.session.once(this.upEvent, () => {
        clearTimeout(timer);
        resolve();
      });
      this.onClose((error) => {
        clearTimeout(timer);
        reject(new Error(`TCP connect failed: ${error?.message ?? 'connection closed'}`));
      });
    });
  }

  get isOpen(): boolean {
    return !this.closed && this.session.socket.writable;
  }

  onClose(handler: (error: Error | null) => void): void {
    if (this.closed) handler(this.lastError);
    else this.closeHandlers.push(handler);
  }

  on(command: string, handler: PduHandler): void {
    this.session.on(command, handler);
  }

  /** Sends a request PDU and resolves with its response PDU (whatever its command_status). */
  request(command: string, fields: PduOptions, timeoutMs: number): Promise<PDU> {
    return new Promise((resolve, reject) => {
      if (!this.isOpen) {
        reject(new ConnectionClosedError());
        return;
      }
      let settled = false;
      const settle = (action: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.pending.delete(fail);
        action();
      };
      const fail = (error: Error): void => settle(() => reject(error));
      const timer = setTimeout(() => fail(new ResponseTimeoutError(command, timeoutMs)), timeoutMs);
      this.pending.add(fail);
      try {
        const sent = this.session.send(new PDU(command, fields), (response) =>
          settle(() => resolve(response)),
        );
        if (!sent) fail(new ConnectionClosedError());
      } catch (error) {
        fail(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /** Answers a request PDU; false when the connection is gone. */
  respond(request: PDU, fields: PduOptions = {}): boolean {
    if (!this.isOpen) return false;
    try {
      return this.session.send(request.response(fields));
    } catch {
      return false;
    }
  }

  /** Ends the connection gracefully, destroying it if it has not closed within timeoutMs. */
  close(timeoutMs = 2000): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) {
        resolve();
        return;
      }
      const timer = setTimeout(() => this.destroy(), timeoutMs);
      this.onClose(() => {
        clearTimeout(timer);
        resolve();
      });
      this.session.close();
    });
  }

  destroy(): void {
    if (!this.session.socket.destroyed) this.session.destroy();
  }
}

export function pduString(pdu: PDU, field: string): string | undefined {
  const value = pdu[field];
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('latin1');
  return undefined;
}

export function pduNumber(pdu: PDU, field: string): number | undefined {
  const value = pdu[field];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
