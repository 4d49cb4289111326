import { Query } from '@nestjs/cqrs';
import type { Environment, KeyScope } from '../../domain/account.events';

/** Who is calling: the key's account, environment and wallet, and what the key may do from where. */
export interface Principal {
  readonly keyId: string;
  readonly accountId: string;
  readonly environment: Environment;
  readonly walletId: string;
  readonly scope: KeyScope;
  /** Empty: anywhere. */
  readonly allowedIps: readonly string[];
}

/**
 * The live (not revoked) key with this value, or null. The key is hashed at once and only the
 * hash is looked up and compared (in constant time); the key itself is never stored or logged.
 * A key found counts as used (its `last_used_at`, recorded at most once a minute).
 */
export class PrincipalByApiKey extends Query<Principal | null> {
  constructor(readonly key: string) {
    super();
  }
}
