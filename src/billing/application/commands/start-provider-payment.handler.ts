import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountReader } from '../../../accounts/application/account-reader';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { CLOCK, Clock } from '../../../shared/clock';
import { DomainError } from '../../../shared/domain-error';
import { checkoutMissing, statusAt } from '../../domain/checkout.decider';
import { PAYMENT_PROVIDERS, PaymentProviders } from '../../ports/payment-provider.port';
import { CheckoutPayments } from '../checkout-payments.service';
import { StartProviderPayment } from './start-provider-payment.command';

/**
 * The provider's transaction is initialized once (its reference is the checkout id, so the
 * provider itself refuses a second one); reloads reuse its page.
 */
@CommandHandler(StartProviderPayment)
export class StartProviderPaymentHandler implements ICommandHandler<StartProviderPayment, string | null> {
  constructor(
    private readonly payments: CheckoutPayments,
    private readonly accounts: AccountReader,
    @Inject(PAYMENT_PROVIDERS) private readonly providers: PaymentProviders,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ checkoutId }: StartProviderPayment): Promise<string | null> {
    const state = await this.payments.load(checkoutId);
    const s = state.started;
    if (!s) throw checkoutMissing();
    if (statusAt(state, this.clock.now()) !== 'pending' || state.payment) return null;
    if (state.paymentRedirectUrl) return state.paymentRedirectUrl;
    const provider = this.providers.forEnvironment(s.environment);
    if (!provider || provider.name !== s.provider) {
      throw new DomainError(
        'unavailable',
        'payments_unavailable',
        'Payments are not available for this checkout right now',
      );
    }
    const account = await this.accounts.byId(s.accountId);
    let redirectUrl: string | null;
    try {
      const started = await provider.startPayment({
        checkoutId: s.checkoutId,
        reference: s.reference,
        amount: s.amount,
        currency: s.currency,
        callbackUrl: `${this.config.publicUrl}/checkout/${s.checkoutId}/return`,
        email: account?.email ?? `${s.accountId}@invalid.example`,
      });
      redirectUrl = started.redirectUrl;
    } catch (error) {
      // A racing click may have initialized it first (the provider refuses a duplicate reference).
      const again = await this.payments.load(checkoutId);
      if (again.paymentRedirectUrl) return again.paymentRedirectUrl;
      throw error;
    }
    if (!redirectUrl) return null;
    const recorded = await this.payments.recordPaymentStarted(checkoutId, redirectUrl);
    return recorded.paymentRedirectUrl ?? redirectUrl;
  }
}
