import { Command } from '@nestjs/cqrs';
import type { Environment } from '../../ports/carrier.port';
import type { ApiMessage } from '../../projections/messages.projection';

/** Cancel a SCHEDULED message of the caller's wallet: CANCELED, and its credits released. */
export class CancelMessage extends Command<ApiMessage> {
  constructor(
    readonly id: unknown,
    readonly scope: { readonly walletId: string; readonly environment: Environment },
  ) {
    super();
  }
}
