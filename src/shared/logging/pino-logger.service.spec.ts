import { ConsoleLogger, Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Writable } from 'node:stream';
import type { AppConfig } from '../../config/app-config';
import { createPino, PinoLoggerService } from './pino-logger.service';
import { runInRequest } from './request-context';

/** A destination that keeps what was written, line by line. */
class Lines extends Writable {
  readonly text: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json(): any[] {
    return this.text.map((line) => JSON.parse(line));
  }
}

function install(logLevel: AppConfig['logLevel'], logFormat: AppConfig['logFormat'] = 'json') {
  const lines = new Lines();
  const service = new PinoLoggerService(createPino({ logLevel, logFormat }, lines));
  Logger.overrideLogger(service);
  return { lines, service };
}

const request = (id: string) => ({ id }) as FastifyRequest;

describe('PinoLoggerService: Nest loggers as JSON lines', () => {
  afterEach(() => Logger.overrideLogger(new ConsoleLogger()));

  it("writes a named logger's line with its level, context, message and an ISO time", () => {
    const { lines } = install('info');
    new Logger('dispatcher').log('started');
    new Logger('dispatcher').warn('slow carrier');
    const [started, slow] = lines.json();
    expect(started).toMatchObject({ level: 'info', context: 'dispatcher', msg: 'started' });
    expect(slow).toMatchObject({ level: 'warn', context: 'dispatcher', msg: 'slow carrier' });
    expect(new Date(started.time).toISOString()).toBe(started.time);
    expect(started).not.toHaveProperty('req_id');
  });

  it("keeps an error's stack in its own field, with or without one", () => {
    const { lines } = install('error');
    const logger = new Logger('http');
    logger.error('POST /v1/messages failed', 'Error: boom\n    at x (y.ts:1:2)');
    logger.error('no stack here');
    expect(lines.json()).toEqual([
      expect.objectContaining({
        level: 'error',
        context: 'http',
        msg: 'POST /v1/messages failed',
        stack: 'Error: boom\n    at x (y.ts:1:2)',
      }),
      expect.objectContaining({ level: 'error', context: 'http', msg: 'no stack here' }),
    ]);
    expect(lines.json()[1]).not.toHaveProperty('stack');
  });

  it('turns an object message into fields and an Error into err', () => {
    const { lines } = install('info');
    new Logger('access').log({ msg: 'GET /health 200', status: 200, path: '/health' });
    new Logger('carriers').error(new Error('bind refused'));
    const [access, failure] = lines.json();
    expect(access).toMatchObject({ context: 'access', msg: 'GET /health 200', status: 200, path: '/health' });
    expect(failure).toMatchObject({
      context: 'carriers',
      msg: 'bind refused',
      err: { message: 'bind refused' },
    });
  });

  it('keeps each line to its own fields', () => {
    const { lines } = install('info');
    new Logger('x').log({ msg: 'first', extra: 1 });
    runInRequest(request('req_C'), () => new Logger('x').log({ msg: 'second', more: 2 }));
    runInRequest(request('req_C'), () => new Logger('x').log('third'));
    new Logger('x').log('fourth');
    const [first, second, third, fourth] = lines.json();
    expect(second).not.toHaveProperty('extra');
    expect(third).not.toHaveProperty('more');
    expect(third.req_id).toBe('req_C');
    expect(fourth).not.toHaveProperty('extra');
    expect(first).not.toHaveProperty('req_id');
  });

  it('carries the request id on every line written while serving a request, across awaits', async () => {
    const { lines } = install('info');
    const logger = new Logger('idempotency');
    await runInRequest(request('req_A'), async () => {
      logger.log('before');
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.warn('after a timer');
    });
    logger.log('outside');
    expect(lines.json().map((l) => [l.msg, l.req_id])).toEqual([
      ['before', 'req_A'],
      ['after a timer', 'req_A'],
      ['outside', undefined],
    ]);
  });

  it('writes only what LOG_LEVEL lets through; debug includes verbose', () => {
    const quiet = install('error');
    new Logger('x').warn('dropped');
    new Logger('x').error('kept');
    expect(quiet.lines.json().map((l) => l.msg)).toEqual(['kept']);

    const chatty = install('debug');
    new Logger('x').debug('d');
    new Logger('x').verbose('v');
    expect(chatty.lines.json().map((l) => [l.level, l.msg])).toEqual([
      ['debug', 'd'],
      ['trace', 'v'],
    ]);

    const silent = install('silent');
    new Logger('x').fatal('nothing at all');
    expect(silent.lines.text).toEqual([]);
  });

  it("follows Nest's setLogLevels", () => {
    const { lines, service } = install('info');
    service.setLogLevels(['error', 'warn']);
    new Logger('x').log('dropped');
    new Logger('x').warn('kept');
    service.setLogLevels([]);
    new Logger('x').error('dropped too');
    expect(lines.json().map((l) => l.msg)).toEqual(['kept']);
  });

  it('redacts credentials in structured fields', () => {
    const { lines } = install('info');
    new Logger('x').log({
      msg: 'headers',
      headers: { authorization: 'Bearer sms_test_secret', cookie: 'sid=1', accept: '*/*' },
      password: 'hunter2',
    });
    const text = lines.text.join('\n');
    expect(text).not.toContain('sms_test_secret');
    expect(text).not.toContain('sid=1');
    expect(text).not.toContain('hunter2');
    expect(lines.json()[0].headers).toEqual({
      authorization: '[redacted]',
      cookie: '[redacted]',
      accept: '*/*',
    });
  });

  it('LOG_FORMAT=pretty writes readable text with the context and request id', () => {
    const { lines } = install('info', 'pretty');
    runInRequest(request('req_B'), () => new Logger('receipts').warn('receipt dropped'));
    expect(lines.text).toHaveLength(1);
    expect(lines.text[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: \[receipts\] receipt dropped \(req_B\)$/);
  });
});
