import { Query } from '@nestjs/cqrs';
import type { Environment } from '../../domain/account.events';

/** Who is calling: the key's account, environment and wallet. */
export interface Principal {
  readonly keyId: string;
  readonly accountId: string;
  readonly environment: Environment;
  readonly walletId: string;
}

/**
 * The live (not revoked) key with this value, or null. The key is hashed at once and only the
 * hash is looked up and compared (in constant time); the key itself is never stored or logged.
 */
export class PrincipalByApiKey extends Query<Principal | null> {
  constructor(readonly key: string) {
    super();
  }
}
