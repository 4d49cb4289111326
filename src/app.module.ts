import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AccountsModule } from './accounts/accounts.module';
import { AuditModule } from './audit/audit.module';
import { AudiencesModule } from './audiences/audiences.module';
import { BillingModule } from './billing/billing.module';
import { CampaignsModule } from './campaigns/campaigns.module';
import { ComplianceModule } from './compliance/compliance.module';
import { ConsoleModule } from './console/console.module';
import { MessagingModule } from './messaging/messaging.module';
import { NotificationsModule } from './notifications/notifications.module';
import { CoreModule } from './shared/core.module';
import { MetricsModule } from './shared/metrics/metrics.module';
import { VerifyModule } from './verify/verify.module';
import { WalletModule } from './wallet/wallet.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({
  imports: [
    // The buses every entry point (REST, console, try-out, CLI) dispatches its use cases through.
    CqrsModule.forRoot(),
    CoreModule,
    MetricsModule,
    WalletModule,
    AccountsModule,
    BillingModule,
    ComplianceModule,
    AudiencesModule,
    MessagingModule,
    CampaignsModule,
    VerifyModule,
    ConsoleModule,
    WebhooksModule,
    NotificationsModule,
    AuditModule,
  ],
})
export class AppModule {}
