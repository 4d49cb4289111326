/**
 * Who may do what in an account's console (API.md, "Teams"). A member holds one role; each role
 * grants a set of permissions, and every console route names the one permission it needs, so
 * the check is one table lookup on the server, whatever the page shows or hides.
 */
export const ROLES = ['owner', 'admin', 'developer', 'sender', 'billing', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  /** Read every page: messages, campaigns, contacts, statements, the audit log. */
  'read',
  /** Send messages, batches, campaigns and verifications; keep contacts, groups, templates, opt-outs. */
  'send',
  /** API keys, webhook endpoints, sender ID requests. */
  'develop',
  /** Buy credits, wallet alerts and auto top-up. */
  'billing',
  /** Invite and remove members, change their roles (never the owner's). */
  'manage_members',
  /** Hand the account over, remove or demote its owner. */
  'own',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const GRANTS: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  viewer: new Set(['read']),
  sender: new Set(['read', 'send']),
  developer: new Set(['read', 'send', 'develop']),
  billing: new Set(['read', 'billing']),
  admin: new Set(['read', 'send', 'develop', 'billing', 'manage_members']),
  owner: new Set(PERMISSIONS),
};

export const isRole = (value: unknown): value is Role =>
  typeof value === 'string' && (ROLES as readonly string[]).includes(value);

export const roleCan = (role: Role, permission: Permission): boolean => GRANTS[role].has(permission);

/** What a permission lets someone do, to finish the sentence "Your role cannot …". */
export const PERMISSION_ACTIONS: Readonly<Record<Permission, string>> = {
  read: 'read this account',
  send: 'send messages or change contacts',
  develop: 'manage API keys, webhooks or sender IDs',
  billing: 'buy credits or change billing settings',
  manage_members: 'manage the account’s members',
  own: 'change the account’s owner',
};
