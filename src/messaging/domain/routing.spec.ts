import {
  BUILT_IN_ROUTES,
  callingCodeOf,
  carrierCallingCode,
  parseRoute,
  resolveRoute,
  Route,
} from './routing';

const carrierOf = (to: string, extra: readonly Route[] = []) => {
  const result = resolveRoute(to, extra);
  return result.ok ? result.value.carrier : result.error.code;
};

describe('resolveRoute', () => {
  it.each([
    ['24', 'MTN'],
    ['25', 'MTN'],
    ['53', 'MTN'],
    ['54', 'MTN'],
    ['55', 'MTN'],
    ['59', 'MTN'],
    ['20', 'TELECEL'],
    ['50', 'TELECEL'],
    ['23', 'AT'],
    ['26', 'AT'],
    ['27', 'AT'],
    ['56', 'AT'],
    ['57', 'AT'],
  ])('routes +233%s… to %s', (digits, carrier) => expect(carrierOf(`+233${digits}1234567`)).toBe(carrier));

  it('has exactly the thirteen Ghana routes built in', () => expect(BUILT_IN_ROUTES).toHaveLength(13));

  it('refuses a Ghana prefix with no carrier as unsupported_destination', () => {
    const result = resolveRoute('+233281234567', []);
    expect(result).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'unsupported_destination', param: 'to' }),
    });
  });

  it('refuses other countries until an operator adds a route', () => {
    expect(carrierOf('+2348031234567')).toBe('unsupported_destination');
    expect(carrierOf('+2348031234567', [{ prefix: '+234', carrier: 'MTNNG' }])).toBe('MTNNG');
  });

  it('lets the longest prefix win', () => {
    const extra = [
      { prefix: '+234', carrier: 'NG' },
      { prefix: '+2348', carrier: 'NG8' },
      { prefix: '+233', carrier: 'GHANA_FALLBACK' },
    ];
    expect(carrierOf('+2348031234567', extra)).toBe('NG8');
    expect(carrierOf('+2347031234567', extra)).toBe('NG');
    expect(carrierOf('+233241234567', extra)).toBe('MTN');
    expect(carrierOf('+233281234567', extra)).toBe('GHANA_FALLBACK');
  });

  it("lets the operator's route win over a built-in one of the same prefix, and the later one win among its own", () => {
    expect(carrierOf('+233241234567', [{ prefix: '+23324', carrier: 'OTHER' }])).toBe('OTHER');
    expect(
      carrierOf('+2348031234567', [
        { prefix: '+234', carrier: 'A' },
        { prefix: '+234', carrier: 'B' },
      ]),
    ).toBe('B');
  });

  it('answers the matched prefix too', () => {
    expect(resolveRoute('+233241234567', [])).toEqual({
      ok: true,
      value: { carrier: 'MTN', prefix: '+23324' },
    });
  });
});

describe('parseRoute', () => {
  it('upper-cases the carrier', () => {
    expect(parseRoute({ prefix: '+234', carrier: ' airtel_ng ' })).toEqual({
      ok: true,
      value: { prefix: '+234', carrier: 'AIRTEL_NG' },
    });
  });

  it.each([['234'], ['+'], ['+23a'], ['+1234567890123456'], [234]])('refuses the prefix %p', (prefix) => {
    expect(parseRoute({ prefix, carrier: 'X' })).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'invalid_route_prefix' }),
    });
  });

  it.each([[''], ['9MOBILE'], ['MTN-NG'], [null]])('refuses the carrier %p', (carrier) => {
    expect(parseRoute({ prefix: '+234', carrier })).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'invalid_carrier' }),
    });
  });
});

describe('carrierCallingCode (the country an inbound national number is read in)', () => {
  it('is the one country of the carrier’s routes', () => {
    expect(carrierCallingCode('MTN')).toBe('233');
    expect(carrierCallingCode('NGCARRIER', [{ prefix: '+234', carrier: 'NGCARRIER' }])).toBe('234');
  });

  it('is null for a carrier without routes or with routes in several countries', () => {
    expect(carrierCallingCode('NOBODY')).toBeNull();
    expect(carrierCallingCode('MTN', [{ prefix: '+234803', carrier: 'MTN' }])).toBeNull();
    expect(carrierCallingCode('WIDE', [{ prefix: '+2', carrier: 'WIDE' }])).toBeNull();
  });

  it('reads the calling code at the start of a prefix', () => {
    expect(callingCodeOf('+23324')).toBe('233');
    expect(callingCodeOf('+1415')).toBe('1');
    expect(callingCodeOf('+44')).toBe('44');
    expect(callingCodeOf('+2')).toBeNull();
  });
});
