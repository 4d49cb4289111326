import { Command } from '@nestjs/cqrs';
import type { OptOutSource } from '../../domain/compliance.events';
import type { ApiOptOut } from '../../projections/compliance.projection';

export interface OptOutChange {
  readonly walletId: string;
  readonly phoneNumber: unknown;
  readonly source: Exclude<OptOutSource, 'inbound'>;
}

/** Put a number on the wallet's opt-out list by hand (API, console). */
export class AddOptOut extends Command<ApiOptOut> {
  constructor(readonly change: OptOutChange) {
    super();
  }
}

/** Take a number off the wallet's opt-out list by hand; one not on it is `404`. */
export class RemoveOptOut extends Command<{ object: 'opt_out'; phone_number: string; deleted: true }> {
  constructor(readonly change: OptOutChange) {
    super();
  }
}
