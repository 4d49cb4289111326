import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { Checkout, checkoutMissing, statusAt } from '../../domain/checkout.decider';
import { CheckoutPayments } from '../checkout-payments.service';
import { DeclineCheckout } from './decline-checkout.command';

/**
 * Fails an unpaid checkout. A shopper who went to the provider may have paid meanwhile: the
 * provider is asked first, and a payment it confirms completes the checkout instead.
 */
@CommandHandler(DeclineCheckout)
export class DeclineCheckoutHandler implements ICommandHandler<DeclineCheckout, Checkout> {
  constructor(
    private readonly payments: CheckoutPayments,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ checkoutId }: DeclineCheckout): Promise<Checkout> {
    let state = await this.payments.load(checkoutId);
    const started = state.started;
    if (!started) throw checkoutMissing();
    if (
      started.provider !== 'test' &&
      state.paymentRedirectUrl &&
      statusAt(state, this.clock.now()) === 'pending' &&
      !state.payment
    ) {
      const asked = state;
      state = await this.payments.verifyAndSettle(checkoutId, { cached: true }).catch(() => asked);
    }
    if (state.payment || state.status === 'succeeded') {
      return this.payments.settleAndWait(checkoutId, () => this.payments.complete(checkoutId));
    }
    if (statusAt(state, this.clock.now()) === 'expired') return state;
    const reason =
      started.provider === 'test' ? 'declined on the test payment page' : 'cancelled by the shopper';
    return this.payments.decline(checkoutId, reason);
  }
}
