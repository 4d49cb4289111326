import { Inject, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AggregateStore } from '../shared/event-store/aggregate-store';
import { ProjectionsService } from '../shared/projections/projections.service';
import { WalletModule } from '../wallet/wallet.module';
import { createPaymentProviders } from './adapters/payment-providers';
import { checkoutPaymentProcess, checkoutRefundProcess } from './application/checkout-payment.process';
import { CheckoutExpirySweeper } from './application/checkout-expiry.sweeper';
import { CheckoutPayments } from './application/checkout-payments.service';
import { AcceptPaystackWebhookHandler } from './application/commands/accept-paystack-webhook.handler';
import { DeclineCheckoutHandler } from './application/commands/decline-checkout.handler';
import { PayCheckoutHandler } from './application/commands/pay-checkout.handler';
import { StartCheckoutHandler } from './application/commands/start-checkout.handler';
import { StartProviderPaymentHandler } from './application/commands/start-provider-payment.handler';
import { VerifyCheckoutPaymentHandler } from './application/commands/verify-checkout-payment.handler';
import { BillingSummaryHandler } from './application/queries/billing-summary.handler';
import { CheckoutByIdHandler } from './application/queries/checkout-by-id.handler';
import { HostedCheckoutHandler } from './application/queries/hosted-checkout.handler';
import { checkoutDecider } from './domain/checkout.decider';
import { checkoutStream } from './domain/checkout.events';
import { autoTopUpProcess, savedCardsProcess } from './application/auto-top-up.process';
import { AutoTopUps } from './application/auto-top-ups.service';
import { SetAutoTopUpHandler } from './application/commands/set-auto-top-up.handler';
import { AutoTopUpSettingsHandler } from './application/queries/auto-top-up-settings.handler';
import { AutoTopUpHttpController } from './http/auto-top-up.http.controller';
import { BillingHttpController } from './http/billing.http.controller';
import { CheckoutPagesHttpController } from './http/checkout-pages.http.controller';
import { PaystackWebhookHttpController } from './http/paystack-webhook.http.controller';
import { checkoutsProjection } from './projections/checkouts.projection';
import { PAYMENT_PROVIDERS } from './ports/payment-provider.port';

@Module({
  imports: [WalletModule],
  controllers: [
    BillingHttpController,
    CheckoutPagesHttpController,
    PaystackWebhookHttpController,
    AutoTopUpHttpController,
  ],
  providers: [
    {
      provide: PAYMENT_PROVIDERS,
      // The test provider's answers are read back from the checkout stream (the reference is
      // the checkout id): PaymentConfirmed means paid, CheckoutFailed declined. Durable by design.
      useFactory: (config: AppConfig, aggregates: AggregateStore) =>
        createPaymentProviders(config, async (reference) => {
          const { state } = await aggregates.load(checkoutStream(reference), checkoutDecider);
          if (!state.started) return null;
          if (state.payment)
            return { status: 'succeeded', amount: state.payment.amount, currency: state.payment.currency };
          if (state.status === 'failed') {
            return {
              status: 'failed',
              amount: state.started.amount,
              currency: state.started.currency,
              reason: state.failureReason,
            };
          }
          return null;
        }),
      inject: [APP_CONFIG, AggregateStore],
    },
    CheckoutPayments,
    CheckoutExpirySweeper,
    StartCheckoutHandler,
    PayCheckoutHandler,
    DeclineCheckoutHandler,
    StartProviderPaymentHandler,
    VerifyCheckoutPaymentHandler,
    AcceptPaystackWebhookHandler,
    BillingSummaryHandler,
    CheckoutByIdHandler,
    HostedCheckoutHandler,
    AutoTopUps,
    SetAutoTopUpHandler,
    AutoTopUpSettingsHandler,
  ],
  exports: [CheckoutPayments, PAYMENT_PROVIDERS],
})
export class BillingModule {
  constructor(
    projections: ProjectionsService,
    payments: CheckoutPayments,
    topUps: AutoTopUps,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    projections.register(
      checkoutsProjection(config.publicUrl),
      checkoutPaymentProcess(payments),
      checkoutRefundProcess(payments),
      savedCardsProcess(topUps),
      autoTopUpProcess(topUps),
    );
  }
}
