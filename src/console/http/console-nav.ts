import { type Permission, type Role, roleCan } from '../../accounts/domain/roles';

/** One entry of the signed-in console's navigation. */
export interface NavEntry {
  /** The page's `nav` key, which marks the entry as the current page. */
  readonly key: string;
  readonly href: string;
  readonly label: string;
  /** Shown only to roles that may open it: the page hides what the server would refuse. */
  readonly permission: Permission;
}

/**
 * The console's pages in the order a merchant meets them: sending first, then the audience, then
 * the money, then the account's set-up. A new page adds its line here.
 */
export const CONSOLE_NAV: readonly NavEntry[] = [
  { key: 'overview', href: '/console', label: 'Overview', permission: 'read' },
  { key: 'send', href: '/console/send', label: 'Send', permission: 'send' },
  { key: 'send-many', href: '/console/send-many', label: 'Send to many', permission: 'send' },
  { key: 'messages', href: '/console/messages', label: 'Messages', permission: 'read' },
  { key: 'verifications', href: '/console/verifications', label: 'Verifications', permission: 'read' },
  { key: 'contacts', href: '/console/contacts', label: 'Contacts', permission: 'read' },
  { key: 'groups', href: '/console/groups', label: 'Groups', permission: 'read' },
  { key: 'templates', href: '/console/templates', label: 'Templates', permission: 'read' },
  { key: 'campaigns', href: '/console/campaigns', label: 'Campaigns', permission: 'read' },
  { key: 'buy', href: '/console/billing', label: 'Buy credits', permission: 'billing' },
  { key: 'history', href: '/console/wallet', label: 'Wallet history', permission: 'read' },
  { key: 'statement', href: '/console/statement', label: 'Statement', permission: 'read' },
  { key: 'keys', href: '/console/keys', label: 'API keys', permission: 'read' },
  { key: 'webhooks', href: '/console/webhooks', label: 'Webhooks', permission: 'read' },
  { key: 'compliance', href: '/console/compliance', label: 'Compliance', permission: 'read' },
  { key: 'members', href: '/console/members', label: 'Members', permission: 'read' },
  { key: 'audit', href: '/console/audit', label: 'Audit log', permission: 'read' },
];

/** The entries a role sees. */
export const navFor = (role: Role | undefined): readonly NavEntry[] =>
  role ? CONSOLE_NAV.filter((entry) => roleCan(role, entry.permission)) : [];
