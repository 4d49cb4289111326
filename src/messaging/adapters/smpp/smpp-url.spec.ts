import { InvalidSmppUrlError, parseSmppUrl, redactSmppUrl } from './smpp-url';

describe('parseSmppUrl', () => {
  it('reads credentials, host, port and options', () => {
    expect(
      parseSmppUrl('smpp://mtn_user:s3cret@smsc.example.com:2776?system_type=VMA&tps=25&window=5'),
    ).toEqual({
      host: 'smsc.example.com',
      port: 2776,
      systemId: 'mtn_user',
      password: 's3cret',
      systemType: 'VMA',
      tps: 25,
      window: 5,
      tls: null,
    });
  });

  it('defaults port 2775, tps 50, window 10 and an empty system_type', () => {
    expect(parseSmppUrl('smpp://test:test@127.0.0.1')).toEqual({
      host: '127.0.0.1',
      port: 2775,
      systemId: 'test',
      password: 'test',
      systemType: '',
      tps: 50,
      window: 10,
      tls: null,
    });
  });

  it('decodes percent-encoded credentials and allows an empty password', () => {
    const config = parseSmppUrl('smpp://us%40er:p%3Ass@host:1?tps=0.5');
    expect(config.systemId).toBe('us@er');
    expect(config.password).toBe('p:ss');
    expect(config.tps).toBe(0.5);
    expect(parseSmppUrl('smpp://user@host:1').password).toBe('');
  });

  it.each([
    ['not a url', /Not a valid URL/],
    ['http://u:p@host:2775', /Unsupported scheme "http:"/],
    ['smpp://host:2775', /Missing system_id/],
    ['smpp://u:p@host:99999', /Not a valid URL|Invalid port/],
    ['smpp://u:p@host:2775?tps=0', /tps=0 .* positive number/],
    ['smpp://u:p@host:2775?tps=fast', /tps=fast/],
    ['smpp://u:p@host:2775?window=2.5', /window=2.5 .* positive integer/],
    ['smpp://u:p@host:2775?speed=1', /Unknown option "speed"/],
    ['smpp://u:p@host:2775/path', /Unexpected path/],
  ])('rejects %s', (raw, message) => {
    expect(() => parseSmppUrl(raw)).toThrow(InvalidSmppUrlError);
    expect(() => parseSmppUrl(raw)).toThrow(message);
  });

  it('never shows the password in errors', () => {
    expect(() => parseSmppUrl('smpp://u:hunter2@host:2775?tps=-1')).toThrow(/smpp:\/\/u:\*\*\*@host/);
    expect(redactSmppUrl('smpp://u:hunter2@host:2775')).toBe('smpp://u:***@host:2775');
  });

  it('hides all of a password that contains @ or /, whatever the scheme', () => {
    expect(redactSmppUrl('smpp://u:p@ss@word@host:2775')).toBe('smpp://u:***@host:2775');
    expect(redactSmppUrl('smpps://u:pa/ss@word@host')).toBe('smpps://u:***@host');
    expect(() => parseSmppUrl('smpp://u:p@ss@word@host:2775?tps=-1')).toThrow(/smpp:\/\/u:\*\*\*@host:2775/);
    for (const raw of ['smpp://u:p@ss@word@host:2775?tps=-1', 'smpp://u:p@ss@word@host/x'])
      expect(() => parseSmppUrl(raw)).toThrow(
        expect.objectContaining({ message: expect.not.stringMatching(/ss|word/) }),
      );
  });

  it('reads smpps:// as TLS on port 3550 by default, with an optional CA file', () => {
    expect(parseSmppUrl('smpps://u:p@carrier.example')).toMatchObject({ port: 3550, tls: { caFile: null } });
    expect(parseSmppUrl('smpps://u:p@carrier.example:2776?ca_file=/etc/ca.pem')).toMatchObject({
      port: 2776,
      tls: { caFile: '/etc/ca.pem' },
    });
    expect(parseSmppUrl('smpp://u:p@carrier.example')).toMatchObject({ port: 2775, tls: null });
    expect(() => parseSmppUrl('smpp://u:p@carrier.example?ca_file=/etc/ca.pem')).toThrow(/needs smpps/);
  });
});
