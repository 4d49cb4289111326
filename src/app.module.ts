import { Module } from '@nestjs/common';
import { AccountsModule } from './accounts/accounts.module';
import { BillingModule } from './billing/billing.module';
import { ConsoleModule } from './console/console.module';
import { MessagingModule } from './messaging/messaging.module';
import { CoreModule } from './shared/core.module';
import { MetricsModule } from './shared/metrics/metrics.module';
import { WalletModule } from './wallet/wallet.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({
  imports: [
    CoreModule,
    MetricsModule,
    WalletModule,
    AccountsModule,
    BillingModule,
    MessagingModule,
    ConsoleModule,
    WebhooksModule,
  ],
})
export class AppModule {}
