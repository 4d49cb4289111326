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
import { walletBalanceProjection } from './projections/wallet-balance.projection';

@Module({
  controllers: [WalletEventsHttpController],
  providers: [
    WalletService,
    WalletBalances,
    GrantCreditsHandler,
    WalletBalanceHandler,
    WalletEventsPageHandler,
    WalletReplayHandler,
  ],
  exports: [WalletService, WalletBalances],
})
export class WalletModule {
  constructor(projections: ProjectionsService, wallets: WalletService, metrics: WalletMetrics) {
    projections.register(walletBalanceProjection);
    metrics.queueDepthFrom(() => wallets.queueDepth());
  }
}
