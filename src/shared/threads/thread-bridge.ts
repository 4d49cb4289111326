import { EventEmitter } from 'node:events';
import { decodeError, encodeError } from './thread-errors';

/** What a thread's side of a channel looks like: a MessagePort, a Worker, or parentPort. */
export interface Port {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

type Envelope =
  | { readonly kind: 'notice'; readonly type: string; readonly payload: unknown }
  | { readonly kind: 'request'; readonly id: number; readonly type: string; readonly payload: unknown }
  | { readonly kind: 'response'; readonly id: number; readonly value?: unknown; readonly error?: unknown };

type Handler = (payload: never) => unknown;

/**
 * The server's two threads talk through this: notices (fire and forget: "I appended", "routes
 * changed") and requests (the worker asks the HTTP thread to run a wallet command, the HTTP thread
 * asks the worker to have its read models reach a position). Messages are structured-cloned, so
 * Maps, Sets and bigints cross as they are; errors cross as what they were (thread-errors.ts).
 * Until a peer is attached, what is sent waits; with none ever attached (the server on one
 * thread), notices go nowhere and nothing asks.
 */
export class ThreadBridge {
  private port: Port | null = null;
  private readonly waiting: Envelope[] = [];
  private readonly notices = new EventEmitter();
  private readonly handlers = new Map<string, Handler>();
  /** Requests that came before their handler (the other thread was quicker to start). */
  private readonly early: Extract<Envelope, { kind: 'request' }>[] = [];
  private readonly pending = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: unknown) => void }
  >();
  private nextId = 1;

  /** `alone`: the server runs on one thread: notices go nowhere and nothing is asked. */
  constructor(private readonly alone = false) {
    this.notices.setMaxListeners(0);
  }

  /** True once the other thread is there to answer. */
  get connected(): boolean {
    return this.port !== null;
  }

  attach(port: Port): void {
    this.port = port;
    port.on('message', (message) => this.receive(message as Envelope));
    for (const envelope of this.waiting.splice(0)) port.postMessage(envelope);
  }

  notify(type: string, payload: unknown = null): void {
    this.send({ kind: 'notice', type, payload });
  }

  onNotice(type: string, listener: (payload: unknown) => void): void {
    this.notices.on(type, listener);
  }

  /** Asks the other thread; rejects with the error its handler threw. */
  request<T>(type: string, payload: unknown): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.send({ kind: 'request', id, type, payload });
    });
  }

  /** Answers the other thread's requests of this type. */
  handle<P, R>(type: string, handler: (payload: P) => Promise<R> | R): void {
    this.handlers.set(type, handler as Handler);
    const ready = this.early.filter((r) => r.type === type);
    for (const request of ready) {
      this.early.splice(this.early.indexOf(request), 1);
      void this.answer(request);
    }
  }

  /** Fails every request still waiting (the other thread is gone). */
  disconnect(reason: Error): void {
    this.port = null;
    for (const { reject } of this.pending.values()) reject(reason);
    this.pending.clear();
  }

  private send(envelope: Envelope): void {
    if (this.port) this.port.postMessage(envelope);
    else if (this.alone && envelope.kind === 'request') {
      this.pending.get(envelope.id)?.reject(new Error(`no other thread to answer ${envelope.type}`));
      this.pending.delete(envelope.id);
    } else if (!this.alone) this.waiting.push(envelope);
  }

  private receive(envelope: Envelope): void {
    switch (envelope.kind) {
      case 'notice':
        this.notices.emit(envelope.type, envelope.payload);
        return;
      case 'response': {
        const waiter = this.pending.get(envelope.id);
        if (!waiter) return;
        this.pending.delete(envelope.id);
        if (envelope.error !== undefined) waiter.reject(decodeError(envelope.error));
        else waiter.resolve(envelope.value);
        return;
      }
      case 'request':
        if (this.handlers.has(envelope.type)) void this.answer(envelope);
        else this.early.push(envelope);
    }
  }

  private async answer(request: Extract<Envelope, { kind: 'request' }>): Promise<void> {
    const handler = this.handlers.get(request.type) as Handler;
    try {
      const value = await handler(request.payload as never);
      this.send({ kind: 'response', id: request.id, value });
    } catch (error) {
      this.send({ kind: 'response', id: request.id, error: encodeError(error) });
    }
  }
}

/** The bridge between the server's HTTP thread and its worker thread (one per thread). */
export const THREAD_BRIDGE = Symbol('THREAD_BRIDGE');
