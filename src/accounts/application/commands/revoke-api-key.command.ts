import { Command } from '@nestjs/cqrs';
import { OPERATOR, type Actor } from '../../../shared/actor';

export interface RevokedKey {
  readonly id: string;
  readonly accountId: string;
  readonly revoked: true;
}

/**
 * Revoke a key: the console names the signed-in account (another account's key is not found),
 * the operator's `keys:revoke` only the key (`accountId` null).
 */
export class RevokeApiKey extends Command<RevokedKey> {
  constructor(
    readonly keyId: string,
    readonly accountId: string | null,
    readonly actor: Actor = OPERATOR,
  ) {
    super();
  }
}
