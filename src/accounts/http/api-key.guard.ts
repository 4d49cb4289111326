import { CanActivate, createParamDecorator, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../shared/domain-error';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import { environmentOfKey, hashApiKey, sameHash } from '../domain/api-key';
import { API_KEYS, ApiKeyPrincipal } from '../projections/accounts.projection';
import { RateLimiter } from '../../shared/http/rate-limiter';

/** Who is calling: the key's account, environment and wallet. */
export interface Principal {
  readonly keyId: string;
  readonly accountId: string;
  readonly environment: 'TEST' | 'LIVE';
  readonly walletId: string;
}

type AuthenticatedRequest = FastifyRequest & { principal?: Principal };

const unauthenticated = (message: string) => new DomainError('authentication', 'invalid_api_key', message);

/**
 * Resolves `Authorization: Bearer sms_…` to its wallet. The key is hashed at once and only the
 * hash is looked up and compared (in constant time); the key itself is never stored or logged.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly limiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers.authorization;
    if (!header) throw unauthenticated('Missing Authorization header: send Authorization: Bearer <API key>');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match || !environmentOfKey(match[1])) {
      throw unauthenticated('Malformed API key: expected Authorization: Bearer sms_test_… or sms_live_…');
    }
    const hash = hashApiKey(match[1]);
    const principal = await this.reads.get<ApiKeyPrincipal>(API_KEYS, hash);
    if (!principal || !sameHash(principal.keyHash, hash) || principal.revoked) {
      throw unauthenticated('Unknown or revoked API key');
    }
    this.limiter.consumeForKey(principal.keyId);
    request.principal = {
      keyId: principal.keyId,
      accountId: principal.accountId,
      environment: principal.environment,
      walletId: principal.walletId,
    };
    return true;
  }
}

export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal => {
    const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
    if (!principal) throw new Error('CurrentPrincipal used on a route without ApiKeyGuard');
    return principal;
  },
);
