import { DomainError } from '../../shared/domain-error';
import type { KeyScope } from './account.events';
import { ipAllowed } from './allowed-ips';
import { scopeAllows } from './key-scopes';

/** What a key's restrictions need to know of it. */
export interface KeyRestrictions {
  readonly scope: KeyScope;
  readonly allowedIps: readonly string[];
}

/**
 * The one check of a key's scope and allow-list against a request (API.md, "Teams"): null when the
 * key may make it, else the `403 permission_denied` to answer. `clientIp` is the address TRUST_PROXY
 * resolves (Fastify's `request.ip`), never a header the client wrote itself.
 */
export function keyAccessRefusal(
  key: KeyRestrictions,
  request: { readonly method: string; readonly path: string; readonly clientIp: string },
): DomainError | null {
  if (!ipAllowed(key.allowedIps, request.clientIp))
    return new DomainError(
      'forbidden',
      'permission_denied',
      `This API key is not allowed from ${request.clientIp}: add the address to its allowed IPs`,
    );
  if (!scopeAllows(key.scope, request.method, request.path))
    return new DomainError(
      'forbidden',
      'permission_denied',
      key.scope === 'read'
        ? 'This API key has the read scope: it may only read (GET)'
        : `This API key has the ${key.scope} scope, which does not cover ${request.method} ${request.path}`,
    );
  return null;
}
