import { addressBucket, UNKNOWN_ADDRESS } from './address-bucket';

describe('addressBucket', () => {
  it('keeps IPv4 addresses as they are', () => {
    expect(addressBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 client by its /64, however it is written', () => {
    const bucket = '2001:db8:1:2::/64';
    for (const ip of [
      '2001:db8:1:2::1',
      '2001:0db8:0001:0002:ffff:ffff:ffff:ffff',
      '2001:DB8:1:2:0:0:0:9',
      '2001:db8:1:2::a:b',
      '2001:db8:1:2::7%eth0',
    ])
      expect(addressBucket(ip)).toBe(bucket);
    expect(addressBucket('2001:db8:1:3::1')).not.toBe(bucket);
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
    expect(addressBucket('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('puts anything that is not an address into one bucket of bounded size', () => {
    for (const junk of ['', 'x'.repeat(16_000), 'not:an:address', `${'1:'.repeat(5000)}1`])
      expect(addressBucket(junk)).toBe(UNKNOWN_ADDRESS);
  });
});
