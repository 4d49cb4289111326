import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { WalletCareService } from '../wallet-care.service';
import type { WalletAlertsView } from '../queries/wallet-alerts.query';
import { toWalletAlerts } from '../queries/wallet-alerts.handler';
import { SetLowBalanceAlert } from './set-low-balance-alert.command';

@CommandHandler(SetLowBalanceAlert)
export class SetLowBalanceAlertHandler implements ICommandHandler<SetLowBalanceAlert, WalletAlertsView> {
  constructor(private readonly care: WalletCareService) {}

  async execute({ walletId, threshold, actor }: SetLowBalanceAlert): Promise<WalletAlertsView> {
    await this.care.setLowBalanceAlert(walletId, threshold, actor);
    return toWalletAlerts(await this.care.view(walletId));
  }
}
