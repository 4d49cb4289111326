import { createHash } from 'node:crypto';
import type { AccountEvent, AccountRegistered, MemberJoined } from '../../accounts/domain/account.events';
import { memberIdFor } from '../../accounts/domain/member-id';
import type { PasswordResetEvent } from '../../accounts/domain/password-reset.events';
import type { CheckoutStarted } from '../../billing/domain/checkout.events';
import type { SenderIdEvent } from '../../compliance/domain/compliance.events';
import type { ConsoleSessionStarted } from '../../console/application/console-sessions.service';
import type { SignInFailed } from '../../console/application/sign-in-failures';
import type { Actor } from '../../shared/actor';
import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import { base62 } from '../../shared/ids';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import type { AutoTopUpSet, LowBalanceAlertSet } from '../../wallet/domain/wallet-care.events';
import type { WebhookEndpointCreated, WebhookEndpointDeleted } from '../../webhooks/domain/webhook.events';
import type { AuditAction, AuditActor, AuditEventView, AuditTarget } from '../domain/audit-event';

export const AUDIT_EVENTS_PROJECTION = 'audit-events';
/** An account's audit events, newest first. */
export const AUDIT_EVENTS = 'audit-events';
/** The same, per account and action, per account and member, and per all three (the console's filters). */
export const AUDIT_EVENTS_BY_ACTION = 'audit-events-by-action';
export const AUDIT_EVENTS_BY_MEMBER = 'audit-events-by-member';
export const AUDIT_EVENTS_BY_MEMBER_ACTION = 'audit-events-by-member-action';
/** What the projection remembers to place later events: accounts of an e-mail, a wallet's or an endpoint's account. */
const AUDIT_INDEX = 'audit-index';

/** The document id of an audit event in one account (a sign-in failure may concern several). */
export const auditDocId = (accountId: string, auditId: string) => `${accountId}|${auditId}`;

/** Ids follow from the event (so a rebuild makes the same ones) and sort by log position. */
export function auditIdFor(recorded: RecordedEvent): string {
  const digest = createHash('sha256').update(`${recorded.streamId}@${recorded.revision}`).digest('hex');
  return `aud_${base62(recorded.position, 11)}${digest.slice(0, 10)}`;
}

/** The partitions a document is listed in, for the console's filters (by action, by member). */
export const auditPartitions = (accountId: string, action?: string | null, memberId?: string | null) =>
  memberId && action
    ? { collection: AUDIT_EVENTS_BY_MEMBER_ACTION, partition: `${accountId}|${memberId}|${action}` }
    : memberId
      ? { collection: AUDIT_EVENTS_BY_MEMBER, partition: `${accountId}|${memberId}` }
      : action
        ? { collection: AUDIT_EVENTS_BY_ACTION, partition: `${accountId}|${action}` }
        : { collection: AUDIT_EVENTS, partition: accountId };

const shown = (actor: Actor | undefined): { actor: AuditActor | null; ip: string | null } => {
  if (!actor) return { actor: null, ip: null };
  if (actor.type === 'member')
    return { actor: { type: 'member', id: actor.id, email: actor.email }, ip: actor.ip };
  if (actor.type === 'api_key') return { actor: { type: 'api_key', id: actor.id }, ip: actor.ip };
  return { actor: { type: 'operator', id: null }, ip: null };
};
const OPERATOR = { actor: { type: 'operator', id: null } as AuditActor, ip: null };

interface Entry {
  readonly accountIds: readonly string[];
  readonly action: AuditAction;
  readonly actor: AuditActor | null;
  readonly target: AuditTarget | null;
  readonly ip: string | null;
}

interface Index {
  readonly accounts?: readonly string[];
  readonly accountId?: string;
  readonly email?: string;
  readonly name?: string;
}

/**
 * The audit log (API.md, "Teams"): a read model of the events that already record these actions
 * (accounts, keys, members, sessions, webhook endpoints, sender IDs, wallet care, checkouts, password
 * resets), per account and both environments, newest first. Rebuildable from the log like any other;
 * each document is written field by field, so nothing secret an event carries (a key's hash, a
 * webhook secret, a token's hash or sealed token, a password hash) can reach it.
 */
export const auditEventsProjection: Projection = {
  name: AUDIT_EVENTS_PROJECTION,
  collections: [
    AUDIT_EVENTS,
    AUDIT_EVENTS_BY_ACTION,
    AUDIT_EVENTS_BY_MEMBER,
    AUDIT_EVENTS_BY_MEMBER_ACTION,
    AUDIT_INDEX,
  ],
  filter: {
    streamPrefixes: [
      'account-',
      'console-session-',
      'sign-in-failures-',
      'webhook-endpoint-',
      'sender-id-',
      'wallet-care-',
      'checkout-',
      'password-resets-',
    ],
    eventTypes: [
      'AccountRegistered',
      'ApiKeyMinted',
      'ApiKeyRevoked',
      'MemberInvited',
      'InvitationCanceled',
      'MemberJoined',
      'MemberRemoved',
      'MemberRoleChanged',
      'OwnershipTransferred',
      'ConsoleSessionStarted',
      'SignInFailed',
      'WebhookEndpointCreated',
      'WebhookEndpointDeleted',
      'SenderIdRequested',
      'SenderIdApproved',
      'SenderIdRejected',
      'LowBalanceAlertSet',
      'AutoTopUpSet',
      'CheckoutStarted',
      'PasswordResetRequested',
      'PasswordResetCompleted',
    ],
  },
  async apply(recorded: RecordedEvent, view: ProjectionView) {
    const entry = await entryFor(recorded, view);
    if (!entry) return;
    const id = auditIdFor(recorded);
    // The id starts with the log position in fixed-width base62, in ASCII order: it is the sort key.
    const sort = id;
    for (const accountId of entry.accountIds) {
      // A login's action (a sign-in failure, a password reset) names its member in each account.
      const actor =
        entry.actor?.type === 'member' && entry.actor.id === null && entry.actor.email
          ? memberActor(accountId, entry.actor.email)
          : entry.actor;
      const doc: AuditEventView = {
        object: 'audit_event',
        id,
        action: entry.action,
        actor,
        target: entry.target,
        ip: entry.ip,
        created_at: recorded.recordedAt.toISOString(),
      };
      const memberId = actor?.type === 'member' ? actor.id : null;
      const lists = [auditPartitions(accountId), auditPartitions(accountId, entry.action)];
      if (memberId)
        lists.push(
          auditPartitions(accountId, null, memberId),
          auditPartitions(accountId, entry.action, memberId),
        );
      for (const { collection, partition } of lists)
        view.put(collection, auditDocId(accountId, id), doc, { partition, sort });
    }
  },
};

const idx = (view: ProjectionView, key: string) => view.get<Index>(AUDIT_INDEX, key);

async function accountsOf(view: ProjectionView, email: string): Promise<readonly string[]> {
  return (await idx(view, `email:${email}`))?.accounts ?? [];
}

async function join(view: ProjectionView, email: string, accountId: string, joins: boolean): Promise<void> {
  const accounts = (await accountsOf(view, email)).filter((a) => a !== accountId);
  view.put(AUDIT_INDEX, `email:${email}`, { accounts: joins ? [...accounts, accountId] : accounts });
}

const memberActor = (accountId: string, email: string): AuditActor => ({
  type: 'member',
  id: memberIdFor(accountId, email),
  email,
});

async function entryFor(recorded: RecordedEvent, view: ProjectionView): Promise<Entry | null> {
  const one = (
    accountId: string | null | undefined,
    action: AuditAction,
    by: { actor: AuditActor | null; ip: string | null },
    target: AuditTarget | null,
  ): Entry | null => (accountId ? { accountIds: [accountId], action, ...by, target } : null);
  const streamAccount = recorded.streamId.startsWith('account-')
    ? recorded.streamId.slice('account-'.length)
    : '';
  const event = recorded as unknown as
    | AccountEvent
    | ConsoleSessionStarted
    | SignInFailed
    | WebhookEndpointCreated
    | WebhookEndpointDeleted
    | SenderIdEvent
    | LowBalanceAlertSet
    | AutoTopUpSet
    | CheckoutStarted
    | PasswordResetEvent;

  switch (event.type) {
    case 'AccountRegistered': {
      const d = (event as AccountRegistered).data;
      await join(view, d.email, d.accountId, true);
      view.put(AUDIT_INDEX, `account:${d.accountId}`, { email: d.email });
      for (const walletId of [d.testWalletId, d.liveWalletId])
        view.put(AUDIT_INDEX, `wallet:${walletId}`, { accountId: d.accountId });
      return one(
        d.accountId,
        'account.created',
        { actor: memberActor(d.accountId, d.email), ip: null },
        {
          type: 'account',
          id: d.accountId,
        },
      );
    }
    case 'ApiKeyMinted': {
      const d = event.data;
      view.put(AUDIT_INDEX, `key:${d.keyId}`, { name: d.name });
      return one(streamAccount, 'api_key.minted', shown(d.actor), {
        type: 'api_key',
        id: d.keyId,
        name: d.name,
        environment: d.environment,
        scope: d.scope ?? 'full',
        allowed_ips: d.allowedIps ?? [],
      });
    }
    case 'ApiKeyRevoked':
      return one(streamAccount, 'api_key.revoked', shown(event.data.actor), {
        type: 'api_key',
        id: event.data.keyId,
        name: (await idx(view, `key:${event.data.keyId}`))?.name ?? null,
      });
    case 'MemberInvited':
      return one(streamAccount, 'member.invited', shown(event.data.actor), {
        type: 'invitation',
        id: event.data.invitationId,
        email: event.data.email,
        role: event.data.role,
        expires_at: event.data.expiresAt,
      });
    case 'InvitationCanceled':
      return one(streamAccount, 'member.invitation_canceled', shown(event.data.actor), {
        type: 'invitation',
        id: event.data.invitationId,
        email: event.data.email,
      });
    case 'MemberJoined': {
      const d = (event as MemberJoined).data;
      await join(view, d.email, streamAccount, true);
      return one(streamAccount, 'member.joined', shown(d.actor), {
        type: 'member',
        id: d.memberId,
        email: d.email,
        role: d.role,
      });
    }
    case 'MemberRemoved':
      await join(view, event.data.email, streamAccount, false);
      return one(streamAccount, 'member.removed', shown(event.data.actor), {
        type: 'member',
        id: event.data.memberId,
        email: event.data.email,
      });
    case 'MemberRoleChanged':
      return one(streamAccount, 'member.role_changed', shown(event.data.actor), {
        type: 'member',
        id: event.data.memberId,
        email: event.data.email,
        role: event.data.role,
        previous_role: event.data.previousRole,
      });
    case 'OwnershipTransferred':
      return one(streamAccount, 'account.ownership_transferred', shown(event.data.actor), {
        type: 'member',
        id: event.data.memberId,
        email: event.data.email,
        previous_owner: event.data.previousOwnerEmail,
      });
    case 'ConsoleSessionStarted': {
      const d = event.data;
      // Sessions from before teams named only the account: its owner signed in.
      const email = d.email ?? (await idx(view, `account:${d.accountId}`))?.email;
      if (!email) return null;
      return one(
        d.accountId,
        'member.signed_in',
        {
          actor: { type: 'member', id: d.memberId ?? memberIdFor(d.accountId, email), email },
          ip: d.ip ?? null,
        },
        null,
      );
    }
    case 'SignInFailed':
      return fanOut(view, event.data.email, 'member.sign_in_failed', event.data.ip);
    case 'WebhookEndpointCreated': {
      const d = event.data;
      view.put(AUDIT_INDEX, `endpoint:${d.endpointId}`, { accountId: d.accountId });
      return one(d.accountId, 'webhook_endpoint.created', shown(d.actor), {
        type: 'webhook_endpoint',
        id: d.endpointId,
        url: d.url,
        environment: d.environment,
        events: d.events,
      });
    }
    case 'WebhookEndpointDeleted': {
      const endpointId = recorded.streamId.slice('webhook-endpoint-'.length);
      const accountId = (await idx(view, `endpoint:${endpointId}`))?.accountId;
      return one(accountId, 'webhook_endpoint.deleted', shown(event.data.actor), {
        type: 'webhook_endpoint',
        id: endpointId,
      });
    }
    case 'SenderIdRequested':
      return one(event.data.accountId, 'sender_id.requested', shown(event.data.actor), {
        type: 'sender_id',
        id: event.data.senderId,
      });
    case 'SenderIdApproved':
      return one(event.data.accountId, 'sender_id.approved', OPERATOR, {
        type: 'sender_id',
        id: event.data.senderId,
      });
    case 'SenderIdRejected':
      return one(event.data.accountId, 'sender_id.rejected', OPERATOR, {
        type: 'sender_id',
        id: event.data.senderId,
        reason: event.data.reason,
      });
    case 'LowBalanceAlertSet':
      return one(event.data.accountId, 'wallet.low_balance_alert_set', shown(event.data.actor), {
        type: 'wallet',
        id: event.data.walletId,
        environment: event.data.environment,
        low_balance: event.data.threshold,
      });
    case 'AutoTopUpSet':
      return one(event.data.accountId, 'wallet.auto_topup_set', shown(event.data.actor), {
        type: 'wallet',
        id: event.data.walletId,
        environment: event.data.environment,
        enabled: event.data.enabled,
        threshold: event.data.threshold,
        package_id: event.data.packageId,
      });
    case 'CheckoutStarted': {
      const d = event.data;
      return one(d.accountId, 'checkout.started', shown(d.actor), {
        type: 'checkout',
        id: d.checkoutId,
        environment: d.environment,
        package_id: d.packageId,
        amount: d.amount,
        currency: d.currency,
        origin: d.origin ?? 'checkout',
      });
    }
    case 'PasswordResetRequested': {
      const d = event.data;
      view.put(AUDIT_INDEX, `reset:${d.resetId}`, { email: d.email });
      return fanOut(view, d.email, 'password_reset.requested', d.ip ?? null);
    }
    case 'PasswordResetCompleted': {
      const email = (await idx(view, `reset:${event.data.resetId}`))?.email;
      return email ? fanOut(view, email, 'password_reset.completed', null) : null;
    }
    default:
      return null;
  }
}

/**
 * A login's action (a sign-in failure, a password reset), shown to every account the login belongs
 * to at that point of the log, as the member it names there (the actor's id is filled per account).
 */
async function fanOut(
  view: ProjectionView,
  email: string,
  action: AuditAction,
  ip: string | null,
): Promise<Entry | null> {
  const accountIds = await accountsOf(view, email);
  if (accountIds.length === 0) return null;
  return { accountIds, action, actor: { type: 'member', id: null, email }, ip, target: null };
}
