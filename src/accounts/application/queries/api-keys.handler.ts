import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccountReader } from '../account-reader';
import { ApiKeys, ApiKeySummary } from './api-keys.query';

@QueryHandler(ApiKeys)
export class ApiKeysHandler implements IQueryHandler<ApiKeys, ApiKeySummary[]> {
  constructor(private readonly accounts: AccountReader) {}

  async execute({ accountId, limit }: ApiKeys): Promise<ApiKeySummary[]> {
    const keys = await this.accounts.keys(accountId, limit);
    return keys.map(({ id, name, environment, suffix, created_at, revoked_at }) => ({
      id,
      name,
      environment,
      suffix,
      created_at,
      revoked_at,
    }));
  }
}
