import { Query } from '@nestjs/cqrs';
import type { Environment, KeyScope } from '../../domain/account.events';

/** A key as its account sees it listed: never the key itself, only its last characters. */
export interface ApiKeySummary {
  readonly id: string;
  readonly name: string;
  readonly environment: Environment;
  readonly suffix: string;
  readonly scope: KeyScope;
  readonly allowed_ips: readonly string[];
  readonly created_at: string;
  readonly revoked_at: string | null;
  /** When a request last used it, to the minute (null: never). */
  readonly last_used_at: string | null;
}

/** The account's keys, newest first. */
export class ApiKeys extends Query<ApiKeySummary[]> {
  constructor(
    readonly accountId: string,
    readonly limit = 1000,
  ) {
    super();
  }
}
