import { Module } from '@nestjs/common';
import { WalletMetrics } from '../shared/metrics/wallet.metrics';
import { ProjectionsService } from '../shared/projections/projections.service';
import { GrantCreditsHandler } from './application/commands/grant-credits.handler';
import { WalletBalanceHandler } from './application/queries/wallet-balance.handler';
import { WalletEventsPageHandler } from './application/queries/wallet-events-page.handler';
import { WalletReplayHandler } from './application/queries/wallet-replay.handler';
import { WalletBalances } from './application/wallet-balances.query';
import { WalletService } from './application/wallet.service';
import { WalletEventsHttpController } from './http/wallet-events.http.controller';
import { WalletCareHttpController } from './http/wallet-care.http.controller';
import { walletBalanceProjection } from './projections/wallet-balance.projection';
import { walletCareProjection } from './projections/wallet-care.projection';
import { balanceWatchProcess } from './application/balance-watch.process';
import { SetLowBalanceAlertHandler } from './application/commands/set-low-balance-alert.handler';
import { WalletAlertsHandler } from './application/queries/wallet-alerts.handler';
import { WalletStatementHandler } from './application/queries/wallet-statement.handler';
import { WalletCareService } from './application/wallet-care.service';

@Module({
  controllers: [WalletEventsHttpController, WalletCareHttpController],
  providers: [
    WalletService,
    WalletBalances,
    GrantCreditsHandler,
    WalletBalanceHandler,
    WalletEventsPageHandler,
    WalletReplayHandler,
    WalletStatementHandler,
    WalletCareService,
    SetLowBalanceAlertHandler,
    WalletAlertsHandler,
  ],
  exports: [WalletService, WalletBalances, WalletCareService],
})
export class WalletModule {
  constructor(
    projections: ProjectionsService,
    wallets: WalletService,
    metrics: WalletMetrics,
    care: WalletCareService,
  ) {
    projections.register(
      walletBalanceProjection,
      walletCareProjection,
      balanceWatchProcess(care, (walletId) => wallets.smsLeftNow(walletId)),
    );
    metrics.queueDepthFrom(() => wallets.queueDepth());
  }
}
