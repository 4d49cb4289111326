/**
 * Who did something, as the events that record an action carry it (`actor` in their data) and the
 * audit log shows it (API.md, "Teams"): a console member, an API key, or the operator's CLI. The
 * client address is the one TRUST_PROXY resolves; none for the operator. Events recorded before
 * actors were have none, and what the service does by itself (an auto top-up's checkout) has none.
 */
export type Actor =
  | { readonly type: 'member'; readonly id: string; readonly email: string; readonly ip: string | null }
  | { readonly type: 'api_key'; readonly id: string; readonly ip: string | null }
  | { readonly type: 'operator'; readonly id: null; readonly ip: null };

export const OPERATOR: Actor = { type: 'operator', id: null, ip: null };
