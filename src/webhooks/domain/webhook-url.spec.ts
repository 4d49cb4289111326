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
