import { Command } from '@nestjs/cqrs';
import { OPERATOR, type Actor } from '../../../shared/actor';
import type { Environment, KeyScope } from '../../domain/account.events';

export interface MintedKey {
  readonly id: string;
  readonly object: 'api_key';
  /** The full key: in this answer and nowhere else, ever. */
  readonly key: string;
  readonly name: string;
  readonly environment: Environment;
  readonly suffix: string;
  readonly scope: KeyScope;
  readonly allowed_ips: readonly string[];
  readonly created_at: string;
}

/** What a key may do and from where (API.md, "Teams"); by default everything, from anywhere. */
export interface KeyRestrictionsInput {
  /** `full`, `send` or `read`; absent: `full`. */
  readonly scope?: unknown;
  /** IPs and CIDRs, as a list or one comma- or space-separated string; absent or empty: anywhere. */
  readonly allowedIps?: unknown;
}

/** Mint an API key for one of the account's environments (console, `keys:mint`). */
export class MintApiKey extends Command<MintedKey> {
  constructor(
    readonly accountId: string,
    readonly environment: Environment,
    readonly name: string,
    readonly restrictions: KeyRestrictionsInput = {},
    readonly actor: Actor = OPERATOR,
  ) {
    super();
  }
}
