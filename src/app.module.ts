import { Module } from '@nestjs/common';
import { AccountsModule } from './accounts/accounts.module';
import { BillingModule } from './billing/billing.module';
import { CoreModule } from './shared/core.module';
import { WalletModule } from './wallet/wallet.module';

@Module({
  imports: [CoreModule, WalletModule, AccountsModule, BillingModule],
})
export class AppModule {}
