import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module';
import { MessagingModule } from '../messaging/messaging.module';
import { WalletModule } from '../wallet/wallet.module';
import { ConsoleSessions } from './application/console-sessions.service';
import { OneTimeFlash } from './application/one-time-flash';
import { SignInThrottle } from './application/sign-in-throttle';
import { ConsoleAssetsController } from './http/console-assets.controller';
import { ConsoleAuthController } from './http/console-auth.controller';
import { ConsoleCsrfGuard, ConsoleVisitor, SignedInGuard } from './http/console-auth';
import { ConsoleController } from './http/console.controller';
import { TryController } from './http/try.controller';
import { WebhooksModule } from '../webhooks/webhooks.module';

/**
 * The server-rendered web console (/console) and the public try-out page (/try). It owns no
 * business logic: accounts, keys, sends, reads and checkouts are the other contexts' services,
 * the very ones the HTTP API calls.
 */
@Module({
  imports: [WalletModule, MessagingModule, BillingModule, WebhooksModule],
  controllers: [ConsoleAssetsController, ConsoleAuthController, ConsoleController, TryController],
  providers: [
    ConsoleSessions,
    ConsoleVisitor,
    ConsoleCsrfGuard,
    SignedInGuard,
    { provide: OneTimeFlash, useFactory: () => new OneTimeFlash() },
    { provide: SignInThrottle, useFactory: () => new SignInThrottle() },
  ],
})
export class ConsoleModule {}
