import { loadConfig } from '../../config/app-config';
import { ThreadBridge } from '../threads/thread-bridge';
import { Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rememberErrorCode } from '../http/error-code';
import { rememberFormSend } from './form-send';
import { MetricsRegistry } from './metrics.registry';
import { answeredSend } from './send-metrics.hooks';
import { SendMetrics } from './send.metrics';

const reply = (statusCode: number, headers: Record<string, string> = {}) =>
  ({ statusCode, elapsedTime: 12.5, getHeader: (name: string) => headers[name] }) as unknown as FastifyReply;

const request = (fields: Record<string, unknown> = {}) =>
  ({ headers: {}, ...fields }) as unknown as FastifyRequest;

async function samples(registry: MetricsRegistry): Promise<string[]> {
  return (await registry.exposition()).split('\n').filter((line) => line.startsWith('sms_send'));
}

/** The registry of a server on one thread. */
const alone = () => new MetricsRegistry(loadConfig({}), new ThreadBridge(true));

describe('SendMetrics: answered sends at the HTTP edge', () => {
  it("labels a send with its key's environment, else the sandbox's, else the key's prefix", () => {
    const authenticated = request({ principal: { environment: 'LIVE' } });
    expect(answeredSend('messages', authenticated, reply(200)).environment).toBe('LIVE');
    expect(answeredSend('sandbox', request(), reply(200)).environment).toBe('TEST');
    const unknownLiveKey = request({ headers: { authorization: 'Bearer sms_live_notminted' } });
    expect(answeredSend('messages', unknownLiveKey, reply(401)).environment).toBe('LIVE');
    expect(
      answeredSend('messages', request({ headers: { authorization: 'Bearer x' } }), reply(401)).environment,
    ).toBe('unknown');
  });

  it('reads the refusal code sendError noted, the replay header and the time in seconds', () => {
    const refused = request({ principal: { environment: 'TEST' } });
    rememberErrorCode(refused, 'invalid_phone_number');
    expect(answeredSend('messages', refused, reply(400))).toEqual({
      endpoint: 'messages',
      environment: 'TEST',
      status: 400,
      code: 'invalid_phone_number',
      result: 'refused',
      seconds: 0.0125,
    });
    expect(answeredSend('messages', request(), reply(200, { 'idempotent-replayed': 'true' })).result).toBe(
      'replayed',
    );
    expect(answeredSend('messages', request(), reply(200)).result).toBe('accepted');
  });

  it("counts a console or try-out form's send from its note, not from the redirect that answers it", () => {
    const session = { consoleSession: { environment: 'LIVE' } };
    const sent = request(session);
    rememberFormSend(sent, false);
    expect(answeredSend('console', sent, reply(303))).toMatchObject({
      environment: 'LIVE',
      result: 'accepted',
    });
    const again = request(session);
    rememberFormSend(again, true);
    expect(answeredSend('console_batch', again, reply(303)).result).toBe('replayed');
    // Signed out: redirected to sign in, nothing sent.
    expect(answeredSend('console', request(), reply(303))).toMatchObject({
      environment: 'unknown',
      result: 'refused',
    });
    const refused = request(session);
    rememberErrorCode(refused, 'invalid_phone_number');
    expect(answeredSend('console', refused, reply(400))).toMatchObject({
      result: 'refused',
      code: 'invalid_phone_number',
    });
    const tried = request();
    rememberFormSend(tried, false);
    expect(answeredSend('try', tried, reply(303))).toMatchObject({ environment: 'TEST', result: 'accepted' });
  });

  it('counts accepted, replayed and refused (by code, or by status when no body said one) apart', async () => {
    const registry = alone();
    const metrics = new SendMetrics(registry);
    const base = {
      endpoint: 'messages' as const,
      environment: 'TEST',
      code: undefined,
      seconds: 0.02,
    };
    metrics.answered({ ...base, status: 200, result: 'accepted' });
    metrics.answered({ ...base, status: 200, result: 'replayed' });
    metrics.answered({ ...base, status: 402, code: 'insufficient_credit', result: 'refused' });
    metrics.answered({ ...base, status: 413, result: 'refused' });
    // A 200 that sent nothing (a batch whose every item was refused) is not an accepted send.
    metrics.answered({ ...base, endpoint: 'batch', status: 200, code: 'batch_refused', result: 'refused' });
    const lines = await samples(registry);
    expect(lines).toEqual(
      expect.arrayContaining([
        'sms_sends_accepted_total{endpoint="messages",environment="TEST"} 1',
        'sms_sends_replayed_total{endpoint="messages",environment="TEST"} 1',
        'sms_sends_refused_total{endpoint="messages",environment="TEST",code="insufficient_credit"} 1',
        'sms_sends_refused_total{endpoint="messages",environment="TEST",code="http_413"} 1',
        'sms_sends_refused_total{endpoint="batch",environment="TEST",code="batch_refused"} 1',
        'sms_send_duration_seconds_count{endpoint="messages",result="refused"} 2',
        'sms_send_duration_seconds_bucket{le="0.025",endpoint="messages",result="accepted"} 1',
        'sms_send_duration_seconds_bucket{le="0.01",endpoint="messages",result="accepted"} 0',
      ]),
    );
  });
});

describe('MetricsRegistry', () => {
  it('samples gauges at scrape time and keeps a failing sampler from failing the scrape', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const registry = alone();
    let depth = 3;
    registry.gaugeAtScrape('sms_test_depth', 'A test gauge.', ['queue'], async () => [
      { labels: { queue: 'a' }, value: depth },
    ]);
    registry.gaugeAtScrape('sms_test_broken', 'A failing gauge.', ['queue'], async () => {
      throw new Error('store down');
    });
    expect(await registry.exposition()).toContain('sms_test_depth{queue="a"} 3');
    depth = 5;
    const text = await registry.exposition();
    expect(text).toContain('sms_test_depth{queue="a"} 5');
    expect(text).not.toMatch(/^sms_test_broken\{/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(warn).toHaveBeenCalledWith('sms_test_broken not sampled: store down');
    warn.mockRestore();
  });

  it('keeps two applications in one process apart', async () => {
    const one = new SendMetrics(alone());
    const two = alone();
    new SendMetrics(two);
    one.answered({
      endpoint: 'sandbox',
      environment: 'TEST',
      status: 200,
      code: undefined,
      result: 'accepted',
      seconds: 0,
    });
    expect(await two.exposition()).not.toContain('sms_sends_accepted_total{');
  });
});
