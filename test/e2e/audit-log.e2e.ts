import { CommandBus } from '@nestjs/cqrs';
import { RequestPasswordReset } from '../../src/accounts/application/commands/request-password-reset.command';
import {
  passwordResetsStream,
  type PasswordResetRequested,
} from '../../src/accounts/domain/password-reset.events';
import { memberIdFor } from '../../src/accounts/domain/member-id';
import { DecideSenderId } from '../../src/compliance/application/commands/decide-sender-id.command';
import { CompletePasswordReset } from '../../src/console/application/commands/complete-password-reset.command';
import { EVENT_STORE, type EventStore } from '../../src/shared/event-store/event-store.port';
import { RebuildProjections } from '../../src/shared/projections/rebuild-projections.command';
import { SECRET_BOX, type SecretBox } from '../../src/shared/secret-box';
import { ConsoleBrowser } from '../support/console-form';
import { createMerchant } from '../support/merchant';
import { addMember, invitationToken } from '../support/team';
import { eventually, expectError, startTestApp, type TestApp } from '../support/test-app';

/**
 * The audit log over HTTP (API.md, "Teams"; issue 33): `GET /v1/audit_events` and the console's
 * page, from the events that record each action, with who did it and from where; per account, both
 * environments, newest first, paged; the same after a rebuild; and nothing secret in it.
 */
jest.setTimeout(180_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Audit = any;

describe('Audit log', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: '127.0.0.1', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  });
  afterAll(() => t?.close());

  async function allEvents(key: string): Promise<Audit[]> {
    const events: Audit[] = [];
    let after = '';
    for (;;) {
      const page = await t.request('GET', `/v1/audit_events?limit=3${after}`, { key });
      expect(page.status).toBe(200);
      events.push(...page.body.data);
      if (!page.body.has_more) return events;
      after = `&starting_after=${page.body.data[page.body.data.length - 1].id}`;
    }
  }

  it('records who did what from where, newest first, and never a secret', async () => {
    const m = await createMerchant(t, undefined, { approvedSenderIds: [] });
    const commands = t.app.get(CommandBus);
    const secrets: string[] = [m.testKey, m.liveKey, m.password];
    const browser = new ConsoleBrowser(t.baseUrl);

    // A failed sign-in, then a sign-in, from addresses a trusted proxy forwards.
    await browser.go('POST', '/console/signin', {
      _csrf: await browser.csrf('/console/signin'),
      email: m.email,
      password: 'not the right one',
    });
    await browser.signIn(m.email, m.password);

    // Keys minted and revoked in the console.
    const minted = await browser.go('POST', '/console/keys', {
      ...((await browser.formTokens('/console/keys')) as Record<string, string>),
      name: 'ci',
      environment: 'LIVE',
      scope: 'send',
    });
    expect(minted.status).toBe(303);
    const keysPage = await browser.go('GET', '/console/keys');
    secrets.push(/value="(sms_live_[0-9A-Za-z]+)"/.exec(keysPage.html)![1]);
    const keyId = /data-key-id="(key_[^"]+)"/.exec(keysPage.html)![1];
    const revokeOnce = new RegExp(
      `action="/console/keys/${keyId}/revoke"[\\s\\S]*?name="_once" value="([^"]+)"`,
    ).exec(keysPage.html)![1];
    expect(
      (
        await browser.go('POST', `/console/keys/${keyId}/revoke`, {
          _csrf: await browser.csrf('/console'),
          _once: revokeOnce,
        })
      ).status,
    ).toBe(303);

    // Members: an invitation, a join, a role change, a removal.
    const member = await addMember(t, m, 'viewer');
    secrets.push(member.password, await invitationToken(t, m.accountId, member.email));
    const memberBrowser = new ConsoleBrowser(t.baseUrl);
    await memberBrowser.signIn(member.email, member.password);
    const roleForm =
      /action="\/console\/members\/(mem_[^/]+)\/role"[\s\S]*?name="_once" value="([^"]+)"/.exec(
        (await browser.go('GET', '/console/members')).html,
      )!;
    expect(
      (
        await browser.go('POST', `/console/members/${roleForm[1]}/role`, {
          _csrf: await browser.csrf('/console'),
          _once: roleForm[2],
          role: 'sender',
        })
      ).status,
    ).toBe(303);

    // Through the API: a webhook endpoint created and deleted, a sender ID requested, an alert, a checkout.
    const key = m.testKey;
    const headers = { 'x-forwarded-for': '198.51.100.23' };
    const endpoint = await t.request('POST', '/v1/webhook_endpoints', {
      key,
      headers,
      body: { url: 'http://127.0.0.1:9/hooks', events: ['message.delivered'] },
    });
    expect(endpoint.status).toBe(200);
    secrets.push(endpoint.body.secret);
    expect(
      (await t.request('DELETE', `/v1/webhook_endpoints/${endpoint.body.id}`, { key, headers })).status,
    ).toBe(200);
    expect(
      (
        await t.request('POST', '/v1/sender_ids', {
          key,
          headers,
          body: { sender_id: 'AuditCo', sample_message: 'Your order shipped' },
        })
      ).status,
    ).toBe(200);
    await commands.execute(new DecideSenderId(m.email, 'AuditCo', { verdict: 'approve' }));
    expect(
      (await t.request('PUT', '/v1/wallet/alerts', { key, headers, body: { low_balance: 25 } })).status,
    ).toBe(200);
    expect(
      (
        await t.request('POST', '/v1/billing/checkout', {
          key,
          headers,
          body: { package_id: 'pkg_starter', success_url: 'https://example.com/paid' },
        })
      ).status,
    ).toBe(200);

    // A password reset, asked for and used.
    await commands.execute(new RequestPasswordReset(m.email, '192.0.2.44'));
    const [requested] = await t.app
      .get<EventStore>(EVENT_STORE)
      .readStream(passwordResetsStream(m.accountId));
    const token = t.app
      .get<SecretBox>(SECRET_BOX)
      .open((requested.data as PasswordResetRequested['data']).sealedToken);
    secrets.push(token, 'the new passphrase');
    await commands.execute(new CompletePasswordReset(token, 'the new passphrase'));

    const ownerId = memberIdFor(m.accountId, m.email);
    const events = await eventually(async () => {
      const all = await allEvents(key);
      return all.some((e) => e.action === 'password_reset.completed') ? all : undefined;
    });
    const actions = events.map((e: Audit) => e.action);
    for (const action of [
      'account.created',
      'member.sign_in_failed',
      'member.signed_in',
      'api_key.minted',
      'api_key.revoked',
      'member.invited',
      'member.joined',
      'member.role_changed',
      'webhook_endpoint.created',
      'webhook_endpoint.deleted',
      'sender_id.requested',
      'sender_id.approved',
      'wallet.low_balance_alert_set',
      'checkout.started',
      'password_reset.requested',
      'password_reset.completed',
    ])
      expect(actions).toContain(action);
    // Newest first; each id once.
    expect(events.map((e: Audit) => e.id)).toEqual([...events.map((e: Audit) => e.id)].sort().reverse());
    expect(new Set(events.map((e: Audit) => e.id)).size).toBe(events.length);
    const find = (action: string) => events.find((e: Audit) => e.action === action);
    expect(find('member.sign_in_failed')).toMatchObject({
      actor: { type: 'member', id: ownerId, email: m.email },
      ip: '127.0.0.1',
    });
    expect(find('api_key.minted')).toMatchObject({
      object: 'audit_event',
      id: expect.stringMatching(/^aud_/),
      actor: { type: 'member', id: ownerId, email: m.email },
      target: { type: 'api_key', id: keyId, name: 'ci', environment: 'LIVE', scope: 'send' },
      ip: '127.0.0.1',
      created_at: expect.any(String),
    });
    expect(find('member.role_changed')).toMatchObject({
      target: { email: member.email, role: 'sender', previous_role: 'viewer' },
    });
    expect(find('webhook_endpoint.created')).toMatchObject({
      actor: { type: 'api_key', id: expect.stringMatching(/^key_/) },
      ip: '198.51.100.23',
      target: { url: 'http://127.0.0.1:9/hooks' },
    });
    expect(find('sender_id.approved')).toMatchObject({ actor: { type: 'operator', id: null }, ip: null });
    expect(find('password_reset.requested')).toMatchObject({
      actor: { type: 'member', id: ownerId },
      ip: '192.0.2.44',
    });
    expect(
      events.filter((e: Audit) => e.action === 'member.signed_in').map((e: Audit) => e.actor.email),
    ).toEqual(expect.arrayContaining([m.email, member.email]));

    // Nothing secret: no key, password, password hash, token, token hash or webhook secret.
    const text = JSON.stringify(events);
    for (const secret of secrets.filter(Boolean)) expect(text).not.toContain(secret);
    expect(text).not.toMatch(
      /scrypt\$|sms_(test|live)_[0-9A-Za-z]{20}|whsec_|v1\.[A-Za-z0-9_-]{10,}\.|"[0-9a-f]{64}"/,
    );
    expect(text).not.toMatch(/passwordHash|keyHash|tokenHash|sealedToken|secret/i);

    // Another account sees none of it, nor may page from its ids.
    const other = await createMerchant(t, undefined, { approvedSenderIds: [] });
    const theirs = await t.request('GET', '/v1/audit_events', { key: other.testKey });
    // Its own: the account, and the two keys the operator minted for it (createMerchant's).
    expect(theirs.body.data.map((e: Audit) => [e.action, e.actor.type])).toEqual([
      ['api_key.minted', 'operator'],
      ['api_key.minted', 'operator'],
      ['account.created', 'member'],
    ]);
    expectError(
      await t.request('GET', `/v1/audit_events?starting_after=${events[0].id}`, { key: other.testKey }),
      404,
      'resource_missing',
    );
    expectError(await t.request('GET', '/v1/audit_events?limit=0', { key }), 400, 'invalid_limit');

    // The console's page, filtered by action and by member.
    // (The member's first session ended with their role change: they sign in again.)
    await eventually(async () =>
      (await memberBrowser.go('GET', '/console/audit')).status === 303 ? true : undefined,
    );
    const auditor = new ConsoleBrowser(t.baseUrl);
    await auditor.signIn(member.email, member.password);
    const filtered = await auditor.go('GET', '/console/audit?action=api_key.minted');
    expect(filtered.status).toBe(200);
    expect([...filtered.html.matchAll(/data-action="([^"]+)"/g)].map((x) => x[1])).toEqual([
      'api_key.minted', // the console's
      'api_key.minted', // and createMerchant's two
      'api_key.minted',
    ]);
    const mine = await auditor.go('GET', `/console/audit?member=${member.memberId}`);
    const mineActions = [...mine.html.matchAll(/data-action="([^"]+)"/g)].map((x) => x[1]);
    expect(mineActions).toEqual(expect.arrayContaining(['member.joined', 'member.signed_in']));
    expect(mineActions).not.toContain('api_key.minted');

    // Rebuilt from the log, the same audit log.
    const beforeRebuild = await allEvents(key);
    await commands.execute(new RebuildProjections());
    expect(await allEvents(key)).toEqual(beforeRebuild);
  });
});
