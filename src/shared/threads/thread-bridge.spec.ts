import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { DomainError } from '../domain-error';
import { ConcurrencyError, StoreUnavailableError } from '../event-store/event-store.port';
import { ThreadBridge } from './thread-bridge';
import { decodeError, encodeError } from './thread-errors';

describe('ThreadBridge', () => {
  const ports: MessagePort[] = [];
  afterEach(() => {
    for (const port of ports.splice(0)) port.close();
  });

  function pair(): [ThreadBridge, ThreadBridge] {
    const { port1, port2 } = new MessageChannel();
    ports.push(port1, port2);
    const a = new ThreadBridge();
    const b = new ThreadBridge();
    a.attach(port1);
    b.attach(port2);
    return [a, b];
  }

  it('answers a request with what the other side returned, Maps and bigints intact', async () => {
    const [api, worker] = pair();
    api.handle('wallet.command', (payload: { sms: number }) => ({
      left: new Map([['wal_1', payload.sms - 1]]),
      position: 41n,
    }));
    const answer = await worker.request<{ left: Map<string, number>; position: bigint }>('wallet.command', {
      sms: 5,
    });
    // Compared as entries: a Map cloned across a port belongs to Node's realm, not jest's.
    expect(Array.from(answer.left)).toEqual([['wal_1', 4]]);
    expect(answer.position).toBe(41n);
  });

  it('rejects with the error the handler threw, as its own class', async () => {
    const [api, worker] = pair();
    api.handle('wallet.command', () => {
      throw new DomainError('conflict', 'insufficient_credit', 'Not enough credit', 'to');
    });
    const error = await worker.request('wallet.command', null).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'conflict', code: 'insufficient_credit', param: 'to' });
  });

  it('keeps a request that came before its handler and answers it once the handler is there', async () => {
    const [api, worker] = pair();
    const answer = worker.request('projections.waitFor', 7);
    await new Promise((resolve) => setTimeout(resolve, 20));
    api.handle('projections.waitFor', (position: number) => position * 2);
    await expect(answer).resolves.toBe(14);
  });

  it('holds what is sent before the other side is attached, and delivers it in order', async () => {
    const { port1, port2 } = new MessageChannel();
    ports.push(port1, port2);
    const early = new ThreadBridge();
    const seen: unknown[] = [];
    early.notify('appended', 1);
    early.notify('appended', 2);
    const other = new ThreadBridge();
    other.attach(port2);
    other.onNotice('appended', (n) => seen.push(n));
    early.attach(port1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toEqual([1, 2]);
  });

  it('on one thread, drops notices and refuses requests at once', async () => {
    const alone = new ThreadBridge(true);
    alone.notify('appended');
    await expect(alone.request('projections.waitFor', 1)).rejects.toThrow(/no other thread/);
  });

  it('fails the requests in flight when the other thread goes away', async () => {
    const [, worker] = pair();
    const answer = worker.request('wallet.command', null);
    worker.disconnect(new Error('the worker thread has stopped'));
    await expect(answer).rejects.toThrow('the worker thread has stopped');
  });
});

describe('thread errors', () => {
  it('round-trip the errors callers branch on', () => {
    const concurrency = decodeError(encodeError(new ConcurrencyError('wallet-1', 3n, 4n)));
    expect(concurrency).toBeInstanceOf(ConcurrencyError);
    expect(concurrency).toMatchObject({ streamId: 'wallet-1', expected: 3n, actual: 4n });

    const unavailable = decodeError(encodeError(new StoreUnavailableError('disk full')));
    expect(unavailable).toBeInstanceOf(StoreUnavailableError);
    expect(unavailable.message).toBe('disk full');

    const plain = new TypeError('boom');
    const decoded = decodeError(structuredClone(encodeError(plain)));
    expect(decoded).toMatchObject({ name: 'TypeError', message: 'boom', stack: plain.stack });
  });
});
