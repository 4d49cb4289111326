/**
 * Minimal declarations for the untyped `smpp` package (v0.5.x), covering only what the SMPP
 * carrier adapter and the SMSC simulator use. PDU fields are `unknown`: read them through the
 * narrowing helpers in src/messaging/adapters/smpp/smpp-connection.ts.
 */
declare module 'smpp' {
  import { EventEmitter } from 'events';
  import * as net from 'net';
  import * as tls from 'tls';

  export interface PduOptions {
    [field: string]: unknown;
  }

  export class PDU {
    constructor(command: string, options?: PduOptions);
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    command_length: number;
    [field: string]: unknown;
    isResponse(): boolean;
    /** The response to this request (generic_nack for an unknown command). */
    response(options?: PduOptions): PDU;
    toBuffer(): Buffer;
    static fromBuffer(buffer: Buffer): PDU | false;
    static maxLength: number;
  }

  export interface ConnectOptions {
    url?: string;
    host?: string;
    port?: number;
    /** TLS (smpps): the other fields are passed on to tls.connect (ca, rejectUnauthorized, …). */
    tls?: boolean;
    ca?: Buffer | string;
    rejectUnauthorized?: boolean;
    auto_enquire_link_period?: number;
  }

  export type PduCallback = (pdu: PDU) => void;

  export class Session extends EventEmitter {
    readonly socket: net.Socket;
    server?: Server;
    /** Returns false (and never calls back) when the socket is not writable. */
    send(pdu: PDU, responseCallback?: PduCallback, sendCallback?: PduCallback): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    pause(): void;
    resume(): void;
  }

  export class Server extends net.Server {
    readonly sessions: Session[];
  }

  export function connect(options: ConnectOptions, listener?: () => void): Session;
  export function createServer(listener?: (session: Session) => void): Server;
  export function createServer(options: net.ServerOpts, listener?: (session: Session) => void): Server;
  /** With `key` and `cert`: a TLS server (smpps). */
  export function createServer(options: tls.TlsOptions, listener?: (session: Session) => void): Server;

  /** SMPP command_status names to numbers, e.g. errors.ESME_RTHROTTLED === 0x58. */
  export const errors: Readonly<Record<string, number>>;
}
