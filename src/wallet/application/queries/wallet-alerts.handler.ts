import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { WalletCareView } from '../../projections/wallet-care.projection';
import { WalletCareService } from '../wallet-care.service';
import { WalletAlertsView, WalletAlerts } from './wallet-alerts.query';

export const toWalletAlerts = (view: WalletCareView | null): WalletAlertsView => ({
  object: 'wallet_alerts',
  low_balance: view?.lowBalance ?? null,
  alerted: view?.alert
    ? { sms_left: view.alert.smsLeft, threshold: view.alert.threshold, at: view.alert.at }
    : null,
});

@QueryHandler(WalletAlerts)
export class WalletAlertsHandler implements IQueryHandler<WalletAlerts, WalletAlertsView> {
  constructor(private readonly care: WalletCareService) {}

  async execute({ walletId }: WalletAlerts): Promise<WalletAlertsView> {
    return toWalletAlerts(await this.care.view(walletId));
  }
}
