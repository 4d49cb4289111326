import { memberIdFor } from '../../accounts/domain/member-id';
import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { DocumentIndex } from '../../shared/read-store/read-store.port';
import type { ProjectionView } from '../../shared/projections/projection';
import type { AuditEventView } from '../domain/audit-event';
import { AUDIT_EVENTS, auditEventsProjection, auditPartitions } from './audit-events.projection';

/** The documents the projection wrote, as the read store would hold them (a unit test's view). */
class Documents implements ProjectionView {
  readonly docs = new Map<string, { doc: unknown; index?: DocumentIndex }>();
  async get<T>(collection: string, id: string) {
    return (this.docs.get(`${collection}/${id}`)?.doc as T) ?? null;
  }
  put(collection: string, id: string, doc: unknown, index?: DocumentIndex) {
    this.docs.set(`${collection}/${id}`, { doc: JSON.parse(JSON.stringify(doc)), index });
  }
  delete(collection: string, id: string) {
    this.docs.delete(`${collection}/${id}`);
  }
  afterBatch() {}
  list(collection: string, partition: string): AuditEventView[] {
    return [...this.docs.entries()]
      .filter(([key, entry]) => key.startsWith(`${collection}/`) && entry.index?.partition === partition)
      .sort(([, a], [, b]) => (a.index!.sort < b.index!.sort ? 1 : -1))
      .map(([, entry]) => entry.doc as AuditEventView);
  }
}

let position = 0n;
const at = new Date('2026-11-24T10:00:00Z');
const event = (streamId: string, type: string, data: object): RecordedEvent => ({
  streamId,
  revision: 0n,
  position: ++position,
  type,
  data,
  metadata: {},
  recordedAt: at,
});
const registered = (accountId: string, email: string) =>
  event(`account-${accountId}`, 'AccountRegistered', {
    accountId,
    email,
    passwordHash: 'scrypt$secret-hash',
    testWalletId: `wal_t_${accountId}`,
    liveWalletId: `wal_l_${accountId}`,
    registeredAt: at.toISOString(),
  });

async function applied(...events: RecordedEvent[]) {
  const view = new Documents();
  for (const e of events) await auditEventsProjection.apply(e, view);
  return view;
}

describe('audit events projection', () => {
  it('shows a login’s failed sign-in to every account it belongs to at that point, as its member there', async () => {
    const view = await applied(
      registered('acct_a', 'ann@shop.example'),
      registered('acct_b', 'bob@shop.example'),
      event('account-acct_b', 'MemberJoined', {
        memberId: memberIdFor('acct_b', 'ann@shop.example'),
        email: 'ann@shop.example',
        role: 'viewer',
        invitationId: 'inv_1',
        loginId: 'acct_a',
        joinedAt: at.toISOString(),
        actor: {
          type: 'member',
          id: memberIdFor('acct_b', 'ann@shop.example'),
          email: 'ann@shop.example',
          ip: null,
        },
      }),
      event('sign-in-failures-acct_a', 'SignInFailed', {
        loginId: 'acct_a',
        email: 'ann@shop.example',
        ip: '198.51.100.4',
        failedAt: at.toISOString(),
      }),
      event('account-acct_b', 'MemberRemoved', {
        memberId: memberIdFor('acct_b', 'ann@shop.example'),
        email: 'ann@shop.example',
        removedAt: at.toISOString(),
        actor: {
          type: 'member',
          id: memberIdFor('acct_b', 'bob@shop.example'),
          email: 'bob@shop.example',
          ip: null,
        },
      }),
      event('sign-in-failures-acct_a', 'SignInFailed', {
        loginId: 'acct_a',
        email: 'ann@shop.example',
        ip: '198.51.100.5',
        failedAt: at.toISOString(),
      }),
    );
    const failures = (accountId: string) =>
      view.list(AUDIT_EVENTS, accountId).filter((e) => e.action === 'member.sign_in_failed');
    expect(failures('acct_a').map((e) => e.ip)).toEqual(['198.51.100.5', '198.51.100.4']);
    expect(failures('acct_b')).toEqual([
      expect.objectContaining({
        ip: '198.51.100.4',
        actor: { type: 'member', id: memberIdFor('acct_b', 'ann@shop.example'), email: 'ann@shop.example' },
      }),
    ]);
    const byMember = auditPartitions(
      'acct_b',
      'member.sign_in_failed',
      memberIdFor('acct_b', 'ann@shop.example'),
    );
    expect(view.list(byMember.collection, byMember.partition)).toHaveLength(1);
  });

  it('names the owner of a session from before teams, the service for an auto top-up, and places a deleted endpoint', async () => {
    const view = await applied(
      registered('acct_a', 'ann@shop.example'),
      event('console-session-h1', 'ConsoleSessionStarted', {
        accountId: 'acct_a',
        startedAt: at.toISOString(),
        expiresAt: at.toISOString(),
      }),
      event('checkout-chk_1', 'CheckoutStarted', {
        checkoutId: 'chk_1',
        walletId: 'wal_l_acct_a',
        accountId: 'acct_a',
        environment: 'LIVE',
        packageId: 'pkg_starter',
        amount: 5000,
        currency: 'GHS',
        sms: 1000,
        successUrl: 'https://x',
        cancelUrl: null,
        provider: 'paystack',
        reference: 'chk_1',
        expiresAt: at.toISOString(),
        createdAt: at.toISOString(),
        origin: 'auto_topup',
      }),
      event('wallet-care-wal_t_acct_a', 'AutoTopUpSet', {
        walletId: 'wal_t_acct_a',
        accountId: 'acct_a',
        environment: 'TEST',
        enabled: true,
        threshold: 100,
        packageId: 'pkg_starter',
        at: at.toISOString(),
        actor: { type: 'api_key', id: 'key_1', ip: '203.0.113.9' },
      }),
      event('webhook-endpoint-we_1', 'WebhookEndpointCreated', {
        endpointId: 'we_1',
        walletId: 'wal_t_acct_a',
        accountId: 'acct_a',
        environment: 'TEST',
        url: 'https://hooks.example/x',
        events: ['message.delivered'],
        secret: 'whsec_do-not-show',
        createdAt: at.toISOString(),
      }),
      event('webhook-endpoint-we_1', 'WebhookEndpointDeleted', { deletedAt: at.toISOString() }),
    );
    const events = view.list(AUDIT_EVENTS, 'acct_a');
    expect(events.map((e) => e.action)).toEqual([
      'webhook_endpoint.deleted',
      'webhook_endpoint.created',
      'wallet.auto_topup_set',
      'checkout.started',
      'member.signed_in',
      'account.created',
    ]);
    expect(events[4].actor).toEqual({
      type: 'member',
      id: memberIdFor('acct_a', 'ann@shop.example'),
      email: 'ann@shop.example',
    });
    expect(events[3]).toMatchObject({ actor: null, target: { origin: 'auto_topup' } });
    expect(events[2]).toMatchObject({
      actor: { type: 'api_key', id: 'key_1' },
      ip: '203.0.113.9',
      target: { enabled: true, threshold: 100 },
    });
    expect(events[1]).toMatchObject({ actor: null, target: { url: 'https://hooks.example/x' } });
    expect(events[0].target).toEqual({ type: 'webhook_endpoint', id: 'we_1' });
    expect(JSON.stringify(events)).not.toMatch(/whsec_|scrypt\$|secret/);
  });
});
