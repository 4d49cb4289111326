import type { KeyScope } from './account.events';

export const KEY_SCOPES: readonly KeyScope[] = ['full', 'send', 'read'];
export const isKeyScope = (value: unknown): value is KeyScope =>
  typeof value === 'string' && (KEY_SCOPES as readonly string[]).includes(value);

/** What a `send` key may do under a path prefix: every method, only read (GET), or nothing. */
export type SendScopeAccess = 'any' | 'read' | 'none';

/**
 * What a `send` key reaches, by route prefix (API.md, "Teams": sends, batches, campaigns,
 * verifications, quotes, and reading them). The one table to extend when a route is added: a path
 * under no prefix here is refused to `send` keys (fail closed). `full` keys reach everything and
 * `read` keys every GET, whatever the table says. The longest matching prefix wins.
 */
export const SEND_SCOPE_ROUTES: ReadonlyArray<{ readonly prefix: string; readonly send: SendScopeAccess }> = [
  // Sends, batches (/batch), quotes (/quote), cancels, and reading them.
  { prefix: '/v1/messages', send: 'any' },
  { prefix: '/v1/campaigns', send: 'any' },
  { prefix: '/v1/verifications', send: 'any' },
  // Audiences are the sender role's in the console, not a send key's: a campaign names its groups
  // and template by id, and the campaign's own use case reads them.
  { prefix: '/v1/contacts', send: 'none' },
  { prefix: '/v1/groups', send: 'none' },
  { prefix: '/v1/contact_imports', send: 'none' },
  { prefix: '/v1/templates', send: 'none' },
  { prefix: '/v1/webhook_endpoints', send: 'none' },
  { prefix: '/v1/billing', send: 'none' },
  { prefix: '/v1/wallet', send: 'none' },
  { prefix: '/v1/audit_events', send: 'none' },
];

const READ_METHODS = new Set(['GET', 'HEAD']);

/** The route prefix `path` falls under: `/v1/messages` covers `/v1/messages/batch`, not `/v1/messagesx`. */
const under = (path: string, prefix: string) =>
  path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}.`);

/** Whether a key of `scope` may make this request (`path` without its query string). */
export function scopeAllows(scope: KeyScope, method: string, path: string): boolean {
  if (scope === 'full') return true;
  const reads = READ_METHODS.has(method.toUpperCase());
  if (scope === 'read') return reads;
  let match: { prefix: string; send: SendScopeAccess } | undefined;
  for (const rule of SEND_SCOPE_ROUTES)
    if (under(path, rule.prefix) && (!match || rule.prefix.length > match.prefix.length)) match = rule;
  if (!match) return false;
  return match.send === 'any' || (match.send === 'read' && reads);
}
