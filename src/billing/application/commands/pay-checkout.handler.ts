import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { Checkout } from '../../domain/checkout.decider';
import { CheckoutPayments } from '../checkout-payments.service';
import { PayCheckout } from './pay-checkout.command';

/** Pays and waits for the credits to be on the wallet, so the shopper returns to a settled checkout. */
@CommandHandler(PayCheckout)
export class PayCheckoutHandler implements ICommandHandler<PayCheckout, Checkout> {
  constructor(private readonly payments: CheckoutPayments) {}

  execute({ checkoutId }: PayCheckout): Promise<Checkout> {
    return this.payments.settleAndWait(checkoutId, () => this.payments.payWithTestProvider(checkoutId));
  }
}
