import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccountReader } from '../account-reader';
import { ApiKeys, ApiKeySummary } from './api-keys.query';

@QueryHandler(ApiKeys)
export class ApiKeysHandler implements IQueryHandler<ApiKeys, ApiKeySummary[]> {
  constructor(private readonly accounts: AccountReader) {}

  async execute({ accountId, limit }: ApiKeys): Promise<ApiKeySummary[]> {
    const keys = await this.accounts.keys(accountId, limit);
    return keys.map((k) => ({
      id: k.id,
      name: k.name,
      environment: k.environment,
      suffix: k.suffix,
      scope: k.scope ?? 'full',
      allowed_ips: k.allowed_ips ?? [],
      created_at: k.created_at,
      revoked_at: k.revoked_at,
      last_used_at: k.last_used_at ?? null,
    }));
  }
}
