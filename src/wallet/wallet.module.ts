import { Module } from '@nestjs/common';
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
  constructor(projections: ProjectionsService) {
    projections.register(walletBalanceProjection);
  }
}
