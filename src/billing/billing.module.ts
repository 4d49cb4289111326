import { Module } from '@nestjs/common';
import { WalletModule } from '../wallet/wallet.module';
import { BillingHttpController } from './http/billing.http.controller';

@Module({
  imports: [WalletModule],
  controllers: [BillingHttpController],
})
export class BillingModule {}
