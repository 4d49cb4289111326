import fastify from 'fastify';
import { fastifyTrustProxy, trustProxy } from './trust-proxy';

describe('TRUST_PROXY', () => {
  it('is off unless set', () => {
    for (const raw of [undefined, '', 'false', '0']) expect(trustProxy(raw)).toBe(false);
  });

  it('takes true as one hop and a number as that many hops, never the left-most address', () => {
    expect(trustProxy('true')).toBe(1);
    expect(trustProxy('2')).toBe(2);
  });

  it('takes a list of proxy addresses and CIDRs', () => {
    expect(trustProxy('10.0.0.0/8, 127.0.0.1,fd00::/8,loopback')).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses anything else at start-up, naming the bad entry', () => {
    for (const raw of ['yes', '10.0.0.0/33', '10.0.0.1/8/1', 'proxy.example.com', '::1/129'])
      expect(() => trustProxy(raw)).toThrow(/TRUST_PROXY/);
  });

  it('gives Fastify a hop count as the nearest hops trusted, so X-Forwarded-For is read', async () => {
    const addressSeen = async (raw: string, forwardedFor: string) => {
      const app = fastify({ trustProxy: fastifyTrustProxy(trustProxy(raw)) });
      app.get('/', async (request) => ({ ip: request.ip }));
      const response = await app.inject({ url: '/', headers: { 'x-forwarded-for': forwardedFor } });
      await app.close();
      return (response.json() as { ip: string }).ip;
    };
    // inject's socket is 127.0.0.1: the proxy that appended the client's address.
    expect(await addressSeen('1', '203.0.113.9')).toBe('203.0.113.9');
    expect(await addressSeen('true', '198.51.100.7, 203.0.113.9')).toBe('203.0.113.9');
    expect(await addressSeen('2', '198.51.100.7, 203.0.113.9')).toBe('198.51.100.7');
    expect(await addressSeen('false', '203.0.113.9')).toBe('127.0.0.1');
    expect(await addressSeen('10.0.0.0/8', '203.0.113.9')).toBe('127.0.0.1');
    expect(await addressSeen('127.0.0.1', '203.0.113.9')).toBe('203.0.113.9');
  });
});
