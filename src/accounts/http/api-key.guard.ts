import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../shared/actor';
import { DomainError } from '../../shared/domain-error';
import { RateLimiter } from '../../shared/http/rate-limiter';
import { Principal, PrincipalByApiKey } from '../application/queries/principal-by-api-key.query';
import { environmentOfKey } from '../domain/api-key';
import { keyAccessRefusal } from '../domain/key-access';

export type { Principal };

type AuthenticatedRequest = FastifyRequest & { principal?: Principal };

const unauthenticated = (message: string) => new DomainError('authentication', 'invalid_api_key', message);

/**
 * What a key found by PrincipalByApiKey may do with this request: its scope and allow-list
 * (API.md, "Teams"), against the client address TRUST_PROXY resolves (`request.ip`, never a
 * forwarded header the server was not told to believe). The one place they are checked: throws
 * `403 permission_denied`.
 */
export function checkKeyAccess(principal: Principal, request: FastifyRequest): void {
  const refusal = keyAccessRefusal(principal, {
    method: request.method,
    path: request.url.split('?')[0],
    clientIp: request.ip,
  });
  if (refusal) throw refusal;
}

/**
 * Resolves `Authorization: Bearer sms_…` to its wallet, counts the request against the key's rate
 * limit (lower for TEST keys), then checks the key's scope and allowed IPs (checkKeyAccess).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly queries: QueryBus,
    private readonly limiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.authenticate(context.switchToHttp().getRequest<AuthenticatedRequest>());
    return true;
  }

  /**
   * Finds the key's principal and counts the request against the key's limit, once per request:
   * routes that take large bodies call it from a hook before the body is read (route-policies.ts),
   * and the guard then finds the principal already there.
   */
  async authenticate(request: AuthenticatedRequest): Promise<Principal> {
    if (request.principal) return request.principal;
    const header = request.headers.authorization;
    if (!header) throw unauthenticated('Missing Authorization header: send Authorization: Bearer <API key>');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match || !environmentOfKey(match[1])) {
      throw unauthenticated('Malformed API key: expected Authorization: Bearer sms_test_… or sms_live_…');
    }
    const principal = await this.queries.execute(new PrincipalByApiKey(match[1]));
    if (!principal) throw unauthenticated('Unknown or revoked API key');
    this.limiter.consumeForKey(principal.keyId, principal.environment);
    checkKeyAccess(principal, request);
    request.principal = principal;
    return principal;
  }
}

/** Who acts, as the events that record an action (and the audit log) name them: the key, from its address. */
export const CurrentActor = createParamDecorator((_data: unknown, context: ExecutionContext): Actor => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.principal) throw new Error('CurrentActor used on a route without ApiKeyGuard');
  return { type: 'api_key', id: request.principal.keyId, ip: request.ip };
});

export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal => {
    const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
    if (!principal) throw new Error('CurrentPrincipal used on a route without ApiKeyGuard');
    return principal;
  },
);
