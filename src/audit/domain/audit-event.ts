/**
 * The audit log's vocabulary (API.md, "Teams"): what was done, by whom, to what, from where. Built
 * from the events that record these actions; never a key, password hash, token, code or secret.
 */
export const AUDIT_ACTIONS = [
  'account.created',
  'member.signed_in',
  'member.sign_in_failed',
  'member.invited',
  'member.invitation_canceled',
  'member.joined',
  'member.removed',
  'member.role_changed',
  'account.ownership_transferred',
  'api_key.minted',
  'api_key.revoked',
  'webhook_endpoint.created',
  'webhook_endpoint.deleted',
  'sender_id.requested',
  'sender_id.approved',
  'sender_id.rejected',
  'wallet.low_balance_alert_set',
  'wallet.auto_topup_set',
  'checkout.started',
  'password_reset.requested',
  'password_reset.completed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const isAuditAction = (value: unknown): value is AuditAction =>
  typeof value === 'string' && (AUDIT_ACTIONS as readonly string[]).includes(value);

/** Who did it, as shown: a member (with their e-mail), an API key, or the operator. */
export interface AuditActor {
  readonly type: 'member' | 'api_key' | 'operator';
  readonly id: string | null;
  readonly email?: string;
}

/** What it was done to: a kind, its id, and what tells it apart (never a secret). */
export interface AuditTarget {
  readonly type: string;
  readonly id: string;
  readonly [detail: string]: string | number | boolean | null | readonly string[];
}

export interface AuditEventView {
  readonly object: 'audit_event';
  readonly id: string;
  readonly action: AuditAction;
  /** Null for what the service did by itself (an auto top-up's checkout) and for actions recorded before actors were. */
  readonly actor: AuditActor | null;
  readonly target: AuditTarget | null;
  /** The client address (as TRUST_PROXY resolves it); null for the operator and for older records. */
  readonly ip: string | null;
  readonly created_at: string;
}
