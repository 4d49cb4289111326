import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../shared/actor';
import type { WalletAlertsView } from '../queries/wallet-alerts.query';

/** PUT /v1/wallet/alerts: the low-balance threshold, or null for none. */
export class SetLowBalanceAlert extends Command<WalletAlertsView> {
  constructor(
    readonly walletId: string,
    readonly threshold: number | null,
    readonly actor?: Actor,
  ) {
    super();
  }
}
