import { Command } from '@nestjs/cqrs';
import type { Environment } from '../../domain/account.events';

export interface MintedKey {
  readonly id: string;
  readonly object: 'api_key';
  /** The full key: in this answer and nowhere else, ever. */
  readonly key: string;
  readonly name: string;
  readonly environment: Environment;
  readonly suffix: string;
  readonly created_at: string;
}

/** Mint an API key for one of the account's environments (console, `keys:mint`). */
export class MintApiKey extends Command<MintedKey> {
  constructor(
    readonly accountId: string,
    readonly environment: Environment,
    readonly name: string,
  ) {
    super();
  }
}
