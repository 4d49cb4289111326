import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { READ_STORE, ReadStore } from '../../../shared/read-store/read-store.port';
import { hashApiKey, sameHash } from '../../domain/api-key';
import { API_KEYS, ApiKeyPrincipal } from '../../projections/accounts.projection';
import { Principal, PrincipalByApiKey } from './principal-by-api-key.query';

@QueryHandler(PrincipalByApiKey)
export class PrincipalByApiKeyHandler implements IQueryHandler<PrincipalByApiKey, Principal | null> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ key }: PrincipalByApiKey): Promise<Principal | null> {
    const hash = hashApiKey(key);
    const found = await this.reads.get<ApiKeyPrincipal>(API_KEYS, hash);
    if (!found || !sameHash(found.keyHash, hash) || found.revoked) return null;
    return {
      keyId: found.keyId,
      accountId: found.accountId,
      environment: found.environment,
      walletId: found.walletId,
    };
  }
}
