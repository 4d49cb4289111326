import { isUnsafeAddress, parseWebhookUrl } from './webhook-url';

describe('webhook URL safety', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '100.127.255.255',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a00:1',
    '::127.0.0.1',
    'ff02::1',
    'not-an-ip',
  ])('refuses %s', (address) => expect(isUnsafeAddress(address)).toBe(true));

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2a00:1450:4001:81b::200e',
  ])('accepts %s', (address) => expect(isUnsafeAddress(address)).toBe(false));

  /**
   * Every block of the IANA special-purpose address registries that is not globally reachable
   * (iana.org/assignments/iana-ipv4-special-registry and iana-ipv6-special-registry), by its
   * first and last address, plus multicast and the IPv4-mapped forms of the IPv4 blocks.
   */
  const IPV4_SPECIAL: Array<[string, string]> = [
    ['0.0.0.0', '0.255.255.255'], // "this network"
    ['10.0.0.0', '10.255.255.255'], // private
    ['100.64.0.0', '100.127.255.255'], // shared address space (CGN)
    ['127.0.0.0', '127.255.255.255'], // loopback
    ['169.254.0.0', '169.254.255.255'], // link-local (cloud metadata)
    ['172.16.0.0', '172.31.255.255'], // private
    ['192.0.0.0', '192.0.0.255'], // IETF protocol assignments
    ['192.0.2.0', '192.0.2.255'], // TEST-NET-1
    ['192.88.99.0', '192.88.99.255'], // deprecated 6to4 relay anycast
    ['192.168.0.0', '192.168.255.255'], // private
    ['198.18.0.0', '198.19.255.255'], // benchmarking
    ['198.51.100.0', '198.51.100.255'], // TEST-NET-2
    ['203.0.113.0', '203.0.113.255'], // TEST-NET-3
    ['224.0.0.0', '239.255.255.255'], // multicast
    ['240.0.0.0', '255.255.255.254'], // reserved
    ['255.255.255.255', '255.255.255.255'], // limited broadcast
  ];
  const IPV6_SPECIAL: Array<[string, string]> = [
    ['::', '::'], // unspecified
    ['::1', '::1'], // loopback
    ['::ffff:0:0', '::ffff:ffff:ffff'], // IPv4-mapped
    ['64:ff9b:1::', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'], // local-use IPv4/IPv6 translation
    ['100::', '100::ffff:ffff:ffff:ffff'], // discard-only
    ['2001::', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff'], // IETF protocol assignments
    ['2001:2::', '2001:2:0:ffff:ffff:ffff:ffff:ffff'], // benchmarking
    ['2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'], // documentation
    ['3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'], // documentation
    ['5f00::', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], // segment routing SIDs
    ['fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], // unique local
    ['fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], // link-local
    ['ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], // multicast
  ];
  it.each([...IPV4_SPECIAL, ...IPV6_SPECIAL])(
    'refuses the special-purpose block %s – %s at both ends',
    (first, last) => {
      expect(isUnsafeAddress(first)).toBe(true);
      expect(isUnsafeAddress(last)).toBe(true);
    },
  );
  it.each(IPV4_SPECIAL)('refuses the IPv4-mapped form of %s – %s', (first, last) => {
    expect(isUnsafeAddress(`::ffff:${first}`)).toBe(true);
    expect(isUnsafeAddress(`::ffff:${last}`)).toBe(true);
  });
  it.each([
    ['9.255.255.255', '11.0.0.0'],
    ['100.63.255.255', '100.128.0.0'],
    ['126.255.255.255', '128.0.0.0'],
    ['172.15.255.255', '172.32.0.0'],
    ['192.167.255.255', '192.169.0.0'],
    ['223.255.255.255', '2000::1'],
  ])('accepts the public neighbours %s and %s', (below, above) => {
    expect(isUnsafeAddress(below)).toBe(false);
    expect(isUnsafeAddress(above)).toBe(false);
  });

  it('LIVE needs https; TEST takes http', () => {
    expect(() => parseWebhookUrl('http://example.com/hook', 'LIVE')).toThrow(/https/);
    expect(parseWebhookUrl('http://127.0.0.1:9/hook', 'TEST').hostname).toBe('127.0.0.1');
    expect(parseWebhookUrl('https://example.com/hook', 'LIVE').hostname).toBe('example.com');
  });

  it.each([
    'ftp://example.com',
    'example.com/hook',
    'https://user:pw@example.com/',
    'https://exa mple.com',
    'http:example.com',
  ])('refuses malformed %s', (url) => expect(() => parseWebhookUrl(url, 'TEST')).toThrow());
});
