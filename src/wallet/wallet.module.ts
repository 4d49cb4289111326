import { Module } from '@nestjs/common';
import { WalletMetrics } from '../shared/metrics/wallet.metrics';
import { ProjectionsService } from '../shared/projections/projections.service';
import { WalletBalances } from './application/wallet-balances.query';
import { WalletService } from './application/wallet.service';
import { WalletEventsHttpController } from './http/wallet-events.http.controller';
import { walletBalanceProjection } from './projections/wallet-balance.projection';

@Module({
  controllers: [WalletEventsHttpController],
  providers: [WalletService, WalletBalances],
  exports: [WalletService, WalletBalances],
})
export class WalletModule {
  constructor(projections: ProjectionsService, wallets: WalletService, metrics: WalletMetrics) {
    projections.register(walletBalanceProjection);
    metrics.queueDepthFrom(() => wallets.queueDepth());
  }
}
