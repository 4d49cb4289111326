import { normaliseAllowedIps, ipAllowed } from './allowed-ips';
import { keyAccessRefusal } from './key-access';
import { scopeAllows, SEND_SCOPE_ROUTES } from './key-scopes';

describe('API key scopes', () => {
  it.each([
    ['full', 'DELETE', '/v1/webhook_endpoints/we_1', true],
    ['read', 'GET', '/v1/audit_events', true],
    ['read', 'POST', '/v1/messages', false],
    ['read', 'POST', '/v1/messages/quote', false],
    ['send', 'POST', '/v1/messages', true],
    ['send', 'POST', '/v1/messages/batch', true],
    ['send', 'POST', '/v1/messages/quote', true],
    ['send', 'GET', '/v1/messages/msg_1', true],
    ['send', 'POST', '/v1/campaigns/quote', true],
    ['send', 'GET', '/v1/campaigns/cmp_1/report.csv', true],
    ['send', 'POST', '/v1/verifications/ver_1/check', true],
    ['send', 'POST', '/v1/webhook_endpoints', false],
    ['send', 'GET', '/v1/billing', false],
    ['send', 'POST', '/v1/contacts', false],
    ['send', 'GET', '/v1/audit_events', false],
    ['send', 'POST', '/v1/messagesx', false],
    ['send', 'GET', '/v1/some_future_route', false],
  ] as const)('%s key: %s %s → %s', (scope, method, path, allowed) => {
    expect(scopeAllows(scope, method, path)).toBe(allowed);
  });

  it('names every route prefix API.md gives the send scope', () => {
    const prefixes = SEND_SCOPE_ROUTES.map((r) => r.prefix);
    for (const p of [
      '/v1/messages',
      '/v1/campaigns',
      '/v1/verifications',
      '/v1/contacts',
      '/v1/groups',
      '/v1/contact_imports',
      '/v1/templates',
    ])
      expect(prefixes).toContain(p);
  });
});

describe('API key allow-lists', () => {
  it('normalises addresses and CIDRs, IPv4 and IPv6, and refuses anything else', () => {
    expect(normaliseAllowedIps('203.0.113.7, 198.51.100.0/24 2001:DB8::/32 ::ffff:10.0.0.1')).toEqual({
      ok: true,
      value: ['203.0.113.7', '198.51.100.0/24', '2001:db8::/32', '10.0.0.1'],
    });
    expect(normaliseAllowedIps(undefined)).toEqual({ ok: true, value: [] });
    for (const bad of ['10.0.0.0/33', 'example.com', '1.2.3', [42]])
      expect(normaliseAllowedIps(bad)).toMatchObject({
        ok: false,
        error: { code: 'invalid_allowed_ips', param: 'allowed_ips' },
      });
  });

  it('matches the client address, an IPv4-mapped one as IPv4', () => {
    const list = ['198.51.100.0/24', '2001:db8::/32', '203.0.113.7'];
    expect(ipAllowed(list, '198.51.100.200')).toBe(true);
    expect(ipAllowed(list, '::ffff:203.0.113.7')).toBe(true);
    expect(ipAllowed(list, '2001:db8:1::5')).toBe(true);
    expect(ipAllowed(list, '198.51.101.1')).toBe(false);
    expect(ipAllowed(list, '2001:db9::1')).toBe(false);
    expect(ipAllowed(list, 'not an address')).toBe(false);
    expect(ipAllowed([], '192.0.2.1')).toBe(true);
  });

  it('refuses with 403 permission_denied, the address first', () => {
    const key = { scope: 'read' as const, allowedIps: ['192.0.2.1'] };
    expect(keyAccessRefusal(key, { method: 'GET', path: '/v1/messages', clientIp: '192.0.2.1' })).toBeNull();
    expect(
      keyAccessRefusal(key, { method: 'GET', path: '/v1/messages', clientIp: '192.0.2.2' }),
    ).toMatchObject({
      kind: 'forbidden',
      code: 'permission_denied',
      message: expect.stringContaining('192.0.2.2'),
    });
    expect(
      keyAccessRefusal(key, { method: 'POST', path: '/v1/messages', clientIp: '192.0.2.1' }),
    ).toMatchObject({
      code: 'permission_denied',
      message: expect.stringContaining('read scope'),
    });
  });
});
