import { optOutNumberOf, readInboundAddress, SmsAddress } from './inbound-address';

const at = (address: string, ton: number | null, npi: number | null = 1): SmsAddress => ({
  address,
  ton,
  npi,
});
const GHANA = '233';

describe('readInboundAddress (issue 28: opt-outs from national numbers, text senders)', () => {
  it.each([
    ['international without the plus (TON 1)', at('233241234597', 1), '+233241234597'],
    ['international with the plus, whatever the TON', at('+233241234597', 0), '+233241234597'],
    ['national with the trunk 0 (TON 2)', at('0241234597', 2), '+233241234597'],
    ['national without the trunk 0 (TON 2)', at('241234597', 2), '+233241234597'],
    ['subscriber number (TON 4)', at('0241234597', 4), '+233241234597'],
    ['TON unknown with the trunk 0', at('0241234597', 0, 0), '+233241234597'],
    ['TON unknown with 00', at('00233241234597', 0, 0), '+233241234597'],
    ['TON unknown, international digits', at('233241234597', 0, 0), '+233241234597'],
    ['no TON at all, national', at(' 0201234567 ', null, null), '+233201234567'],
  ])('%s: the E.164 number', (_what, address, number) => {
    expect(readInboundAddress(address, GHANA)).toEqual({ kind: 'number', value: number });
  });

  it.each([
    ['abbreviated (TON 6)', at('1234', 6, 0)],
    ['network-specific (TON 3)', at('4040', 3, 0)],
    ['unknown TON, 3 to 8 digits', at('12345678', 0, 0)],
  ])('%s: a short code', (_what, address) => {
    expect(readInboundAddress(address, GHANA)).toEqual({ kind: 'short_code', value: address.address });
  });

  it.each([
    ['alphanumeric (TON 5), even digits', at('0241234597', 5, 0)],
    ['a spreadsheet formula', at('=HYPERLINK("x")', 0, 0)],
    ['markup', at('<b>0241234597</b>', 1)],
    ['international with a leading 0 (no country code starts with 0)', at('+0241234597', 1)],
    ['international, too short', at('2332', 1)],
    ['international, too long', at('2332412345971234', 1)],
    ['a name', at('MTN Promo', 0, 0)],
    ['digits with spaces inside', at('024 123 4597', 2)],
  ])('%s: text only', (_what, address) => {
    expect(readInboundAddress(address, GHANA)).toEqual({ kind: 'text', value: address.address.trim() });
  });

  it('keeps a national number as text when the route has no single country', () => {
    expect(readInboundAddress(at('0241234597', 2), null)).toEqual({ kind: 'text', value: '0241234597' });
    expect(readInboundAddress(at('233241234597', 1), null)).toEqual({
      kind: 'number',
      value: '+233241234597',
    });
  });

  it('reads a national number by the country given', () => {
    expect(readInboundAddress(at('08031234567', 2), '234')).toEqual({
      kind: 'number',
      value: '+2348031234567',
    });
  });
});

describe('optOutNumberOf', () => {
  it('takes only a sender read as a number', () => {
    expect(optOutNumberOf({ from: '+233241234597', fromKind: 'number' })).toBe('+233241234597');
    expect(optOutNumberOf({ from: '+233241234597', fromKind: 'text' })).toBeNull();
    expect(optOutNumberOf({ from: '4040', fromKind: 'short_code' })).toBeNull();
  });

  it('takes an older inbound (no fromKind) only when its sender is a plausible E.164 number', () => {
    expect(optOutNumberOf({ from: '+233241234597' })).toBe('+233241234597');
    expect(optOutNumberOf({ from: '+0241234597' })).toBeNull();
    expect(optOutNumberOf({ from: '=HYPERLINK("x")' })).toBeNull();
    expect(optOutNumberOf({ from: '4040' })).toBeNull();
  });
});
