import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { READ_STORE, ReadStore } from '../../../shared/read-store/read-store.port';
import { hashApiKey, sameHash } from '../../domain/api-key';
import { API_KEYS, ApiKeyPrincipal } from '../../projections/accounts.projection';
import { ApiKeyUsage } from '../api-key-usage';
import { RecentPrincipals } from '../recent-principals';
import { Principal, PrincipalByApiKey } from './principal-by-api-key.query';

@QueryHandler(PrincipalByApiKey)
export class PrincipalByApiKeyHandler implements IQueryHandler<PrincipalByApiKey, Principal | null> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly recent: RecentPrincipals,
    private readonly usage: ApiKeyUsage,
  ) {}

  /** An accepted key counts as used (`last_used_at`), whatever its scope then lets the request do. */
  async execute({ key }: PrincipalByApiKey): Promise<Principal | null> {
    const principal = await this.find(key);
    if (principal) this.usage.used(principal.keyId);
    return principal;
  }

  private async find(key: string): Promise<Principal | null> {
    const hash = hashApiKey(key);
    const held = this.recent.find(hash);
    if (held) return held;
    const found = await this.reads.get<ApiKeyPrincipal>(API_KEYS, hash);
    if (!found || !sameHash(found.keyHash, hash) || found.revoked) return null;
    const principal: Principal = {
      keyId: found.keyId,
      accountId: found.accountId,
      environment: found.environment,
      walletId: found.walletId,
      scope: found.scope ?? 'full',
      allowedIps: found.allowedIps ?? [],
    };
    this.recent.remember(hash, principal);
    return principal;
  }
}
