import { CompletePasswordResetHandler } from './application/commands/complete-password-reset.handler';
import { ConsolePasswordResetController } from './http/console-password-reset.controller';
import { ConsoleWalletCareController } from './http/console-wallet-care.controller';
import { ConsoleVerificationsController } from './http/console-verifications.controller';
import { PasswordResetThrottle } from './http/password-reset-throttle';
import { Module } from '@nestjs/common';
import { ProjectionsService } from '../shared/projections/projections.service';
import { ConsoleAuditController } from './http/console-audit.controller';
import { ConsoleInvitationsController } from './http/console-invitations.controller';
import { ConsoleMembersController } from './http/console-members.controller';
import { ChooseAccountHandler } from './application/commands/choose-account.handler';
import { JoinAccountHandler } from './application/commands/join-account.handler';
import { memberSessionsProcess } from './application/member-sessions.process';
import { BillingModule } from '../billing/billing.module';
import { MessagingModule } from '../messaging/messaging.module';
import { WalletModule } from '../wallet/wallet.module';
import { ConsoleSessions } from './application/console-sessions.service';
import { FormReplays } from './http/form-replays';
import { OneTimeFlash } from './http/one-time-flash';
import { SignInThrottle } from './application/sign-in-throttle';
import { SignUpThrottle } from './http/sign-up-throttle';
import { ChooseEnvironmentHandler } from './application/commands/choose-environment.handler';
import { EndAllSessionsHandler } from './application/commands/end-all-sessions.handler';
import { SignInHandler } from './application/commands/sign-in.handler';
import { SignOutHandler } from './application/commands/sign-out.handler';
import { SignUpHandler } from './application/commands/sign-up.handler';
import { VisitorBySessionHandler } from './application/queries/visitor-by-session.handler';
import { ConsoleAssetsController } from './http/console-assets.controller';
import { ConsoleAuthController } from './http/console-auth.controller';
import { ConsoleCsrfGuard, ConsoleVisitor, SignedInGuard } from './http/console-auth';
import { ConsolePage, ConsolePermissionGuard } from './http/console-page';
import { ConsoleController } from './http/console.controller';
import { ConsoleCampaignsController } from './http/console-campaigns.controller';
import { ConsoleAudienceCampaignsController } from './http/console-audience-campaigns.controller';
import { ConsoleAudiencesController } from './http/console-audiences.controller';
import { ConsoleContactsController } from './http/console-contacts.controller';
import { ConsoleComplianceController } from './http/console-compliance.controller';
import { TryController } from './http/try.controller';
import { WebhooksModule } from '../webhooks/webhooks.module';

/**
 * The server-rendered web console (/console) and the public try-out page (/try). It owns no
 * business logic beyond its sign-in sessions: accounts, keys, sends, reads and checkouts are the
 * other contexts' use cases, dispatched through the same buses as the HTTP API's.
 */
@Module({
  imports: [WalletModule, MessagingModule, BillingModule, WebhooksModule],
  controllers: [
    ConsoleAssetsController,
    ConsoleAuthController,
    ConsoleController,
    ConsoleCampaignsController,
    ConsoleAudienceCampaignsController,
    ConsoleContactsController,
    ConsoleAudiencesController,
    ConsoleComplianceController,
    ConsolePasswordResetController,
    ConsoleWalletCareController,
    ConsoleMembersController,
    ConsoleInvitationsController,
    ConsoleAuditController,
    ConsoleVerificationsController,
    TryController,
  ],
  providers: [
    ConsoleSessions,
    ConsoleVisitor,
    ConsoleCsrfGuard,
    SignedInGuard,
    ConsolePermissionGuard,
    ConsolePage,
    { provide: OneTimeFlash, useFactory: () => new OneTimeFlash() },
    { provide: FormReplays, useFactory: () => new FormReplays() },
    { provide: SignInThrottle, useFactory: () => new SignInThrottle() },
    SignUpThrottle,
    PasswordResetThrottle,
    CompletePasswordResetHandler,
    SignInHandler,
    SignUpHandler,
    SignOutHandler,
    EndAllSessionsHandler,
    ChooseEnvironmentHandler,
    ChooseAccountHandler,
    JoinAccountHandler,
    VisitorBySessionHandler,
  ],
})
export class ConsoleModule {
  constructor(projections: ProjectionsService, sessions: ConsoleSessions) {
    projections.register(memberSessionsProcess(sessions));
  }
}
