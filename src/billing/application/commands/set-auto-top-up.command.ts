import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../shared/actor';
import type { AutoTopUpView } from '../queries/auto-top-up-settings.query';

/** PUT /v1/wallet/auto_topup: a threshold or package left out keeps the one set before. */
export class SetAutoTopUp extends Command<AutoTopUpView> {
  constructor(
    readonly walletId: string,
    readonly settings: {
      readonly enabled: boolean;
      readonly threshold?: number;
      readonly packageId?: string;
    },
    readonly actor?: Actor,
  ) {
    super();
  }
}
