import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { MintApiKey } from '../../src/accounts/application/commands/mint-api-key.command';
import { ApiKeys } from '../../src/accounts/application/queries/api-keys.query';
import { apiKeyUsageStream } from '../../src/accounts/domain/api-key-usage.events';
import { EVENT_STORE, type EventStore } from '../../src/shared/event-store/event-store.port';
import { runCliProcess } from '../support/cli';
import { ConsoleBrowser } from '../support/console-form';
import { createMerchant, type Merchant } from '../support/merchant';
import { eventually, expectError, startTestApp, type TestApp } from '../support/test-app';

/**
 * API key scopes and allow-lists over HTTP (API.md, "Teams"; issue 33): `full`, `send` and `read`;
 * `allowed_ips` of addresses and CIDRs, IPv4 and IPv6, checked against the client address as
 * TRUST_PROXY resolves it: a forwarded address behind a trusted proxy is believed, one from a
 * client that is not a trusted proxy is not. Outside them: 403 permission_denied. And `last_used_at`,
 * recorded at most once a minute per key.
 */
jest.setTimeout(180_000);

const send = { to: '+233200000001', sender_id: 'MyShop', message: 'Hello', type: 'transactional' };

async function mint(
  t: TestApp,
  m: Merchant,
  restrictions: { scope?: string; allowedIps?: string[] | string },
) {
  return (
    await t.app.get(CommandBus).execute(new MintApiKey(m.accountId, 'TEST', 'restricted', restrictions))
  ).key;
}

function expectDenied(response: Awaited<ReturnType<TestApp['request']>>) {
  const error = expectError(response, 403, 'permission_denied');
  expect(error.type).toBe('permission_error');
  return error;
}

describe('API key scopes', () => {
  let t: TestApp;
  let m: Merchant;
  beforeAll(async () => {
    t = await startTestApp();
    m = await createMerchant(t);
  });
  afterAll(() => t?.close());

  it('a read key only reads', async () => {
    const key = await mint(t, m, { scope: 'read' });
    expect((await t.request('GET', '/v1/messages', { key })).status).toBe(200);
    expect((await t.request('GET', '/v1/billing', { key })).status).toBe(200);
    expect((await t.request('GET', '/v1/audit_events', { key })).status).toBe(200);
    expect(expectDenied(await t.request('POST', '/v1/messages', { key, body: send })).message).toContain(
      'read scope',
    );
    expectDenied(await t.request('POST', '/v1/messages/quote', { key, body: send }));
    expectDenied(await t.request('PUT', '/v1/wallet/alerts', { key, body: { low_balance: 10 } }));
  });

  it('a send key sends, quotes and reads its messages, and nothing else', async () => {
    const key = await mint(t, m, { scope: 'send' });
    const sent = await t.request('POST', '/v1/messages', { key, body: send });
    expect(sent.status).toBe(200);
    expect((await t.request('GET', `/v1/messages/${sent.body.id}`, { key })).status).toBe(200);
    expect((await t.request('POST', '/v1/messages/quote', { key, body: send })).status).toBe(200);
    const batch = await t.request('POST', '/v1/messages/batch', {
      key,
      body: {
        sender_id: 'MyShop',
        type: 'transactional',
        message: 'Hi',
        messages: [{ to: '+233200000001' }],
      },
    });
    expect(batch.status).toBe(200);
    expectDenied(
      await t.request('POST', '/v1/webhook_endpoints', {
        key,
        body: { url: 'https://example.com/h', events: ['message.delivered'] },
      }),
    );
    expectDenied(await t.request('GET', '/v1/billing', { key }));
    expectDenied(await t.request('GET', '/v1/audit_events', { key }));
    expectDenied(
      await t.request('POST', '/v1/billing/checkout', {
        key,
        body: { package_id: 'pkg_starter', success_url: 'https://example.com' },
      }),
    );
  });

  it('a full key (the default) does everything; a refusal records nothing', async () => {
    const key = await mint(t, m, {});
    expect((await t.request('GET', '/v1/billing', { key })).status).toBe(200);
    expect((await t.request('PUT', '/v1/wallet/alerts', { key, body: { low_balance: null } })).status).toBe(
      200,
    );
    const readKey = await mint(t, m, { scope: 'read' });
    const before = (await t.request('GET', '/v1/messages?limit=100', { key })).body.data.length;
    expectDenied(await t.request('POST', '/v1/messages', { key: readKey, body: send }));
    expect((await t.request('GET', '/v1/messages?limit=100', { key })).body.data.length).toBe(before);
  });

  it('refuses a scope or an address list that is not one', async () => {
    await expect(mint(t, m, { scope: 'admin' })).rejects.toMatchObject({
      code: 'invalid_scope',
      param: 'scope',
    });
    await expect(mint(t, m, { allowedIps: ['10.0.0.0/40'] })).rejects.toMatchObject({
      code: 'invalid_allowed_ips',
      param: 'allowed_ips',
    });
  });

  it('shows last_used_at, recorded once a minute per key however many requests it makes', async () => {
    const key = await mint(t, m, { scope: 'read' });
    const before = Date.now();
    for (let i = 0; i < 5; i++) expect((await t.request('GET', '/v1/messages', { key })).status).toBe(200);
    const used = await eventually(async () => {
      const keys = await t.app.get(QueryBus).execute(new ApiKeys(m.accountId));
      return keys.find(
        (k) =>
          k.suffix === key.slice(-4) &&
          k.last_used_at !== null &&
          Date.parse(k.last_used_at) >= before - 1000,
      );
    });
    expect(Date.parse(used.last_used_at!)).toBeLessThanOrEqual(Date.now());
    const keys = await t.app.get(QueryBus).execute(new ApiKeys(m.accountId));
    const usage = await Promise.all(
      keys.map((k) => t.app.get<EventStore>(EVENT_STORE).readStream(apiKeyUsageStream(k.id))),
    );
    // Every key this suite used was used many times, and each has one usage event at most.
    expect(Math.max(...usage.map((events) => events.length))).toBe(1);
  });

  it('sets scope and allowed IPs from the console’s keys page and keys:mint', async () => {
    const browser = new ConsoleBrowser(t.baseUrl);
    await browser.signIn(m.email, m.password);
    const tokens = await browser.formTokens('/console/keys');
    const minted = await browser.go('POST', '/console/keys', {
      ...(tokens as Record<string, string>),
      name: 'reporting',
      environment: 'TEST',
      scope: 'read',
      allowed_ips: '203.0.113.0/24\n2001:db8::/32',
    });
    expect(minted.status).toBe(303);
    const page = await browser.go('GET', '/console/keys');
    expect(page.html).toMatch(
      /Read<\/td>\s*<td data-label="Allowed IPs">203\.0\.113\.0\/24, 2001:db8::\/32</,
    );
    const refused = await browser.go('POST', '/console/keys', {
      ...((await browser.formTokens('/console/keys')) as Record<string, string>),
      name: 'bad',
      environment: 'TEST',
      allowed_ips: 'not-an-address',
    });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('is not an IP address or CIDR');

    const cli = await runCliProcess(t.dataDir, [
      'keys:mint',
      '--email',
      m.email,
      '--env',
      'test',
      '--scope',
      'send',
      '--allowed-ips',
      '127.0.0.1,::1',
    ]);
    expect(cli.output).toMatchObject({
      scope: 'send',
      allowed_ips: ['127.0.0.1', '::1'],
      key: expect.stringMatching(/^sms_test_/),
    });
    const key = cli.output.key as string;
    await eventually(async () =>
      (await t.request('GET', '/v1/messages', { key })).status === 200 ? true : undefined,
    );
    expectDenied(await t.request('GET', '/v1/billing', { key }));
    const bad = await runCliProcess(t.dataDir, [
      'keys:mint',
      '--email',
      m.email,
      '--env',
      'test',
      '--scope',
      'everything',
    ]);
    expect(bad.code).not.toBe(0);
  });
});

describe('API key allow-lists behind a trusted proxy (TRUST_PROXY=127.0.0.1)', () => {
  let t: TestApp;
  let m: Merchant;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
    m = await createMerchant(t);
  });
  afterAll(() => t?.close());

  const from = (address: string) => ({ 'x-forwarded-for': address });

  it('believes the address the trusted proxy forwards, IPv4 and IPv6, addresses and CIDRs', async () => {
    const key = await mint(t, m, { allowedIps: ['203.0.113.0/24', '2001:db8::/32', '198.51.100.7'] });
    for (const address of ['203.0.113.77', '2001:db8:1::5', '198.51.100.7'])
      expect((await t.request('GET', '/v1/messages', { key, headers: from(address) })).status).toBe(200);
    for (const address of ['198.51.100.8', '2001:db9::1', '192.0.2.1']) {
      const error = expectDenied(await t.request('GET', '/v1/messages', { key, headers: from(address) }));
      expect(error.message).toContain(address);
    }
    // The proxy's own address is not the client's: without a forwarded address it is 127.0.0.1.
    expectDenied(await t.request('GET', '/v1/messages', { key }));
    // A client cannot pick its address by writing one in front: the proxy's hop is what counts.
    expectDenied(await t.request('GET', '/v1/messages', { key, headers: from('203.0.113.77, 192.0.2.1') }));
  });
});

describe('API key allow-lists with no proxy trusted (the default)', () => {
  let t: TestApp;
  let m: Merchant;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: '' } });
    m = await createMerchant(t);
  });
  afterAll(() => t?.close());

  it('does not believe a forwarded address: the connection’s address is the client’s', async () => {
    const listed = await mint(t, m, { allowedIps: ['203.0.113.7'] });
    expectDenied(
      await t.request('GET', '/v1/messages', { key: listed, headers: { 'x-forwarded-for': '203.0.113.7' } }),
    );
    const local = await mint(t, m, { allowedIps: ['127.0.0.1'] });
    expect(
      (await t.request('GET', '/v1/messages', { key: local, headers: { 'x-forwarded-for': '198.51.100.1' } }))
        .status,
    ).toBe(200);
  });
});
