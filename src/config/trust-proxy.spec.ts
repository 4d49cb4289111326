import { trustProxy } from './trust-proxy';

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
});
