import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { Checkout } from '../../domain/checkout.decider';
import { CheckoutPayments } from '../checkout-payments.service';
import { VerifyCheckoutPayment } from './verify-checkout-payment.command';

@CommandHandler(VerifyCheckoutPayment)
export class VerifyCheckoutPaymentHandler implements ICommandHandler<VerifyCheckoutPayment, Checkout> {
  constructor(private readonly payments: CheckoutPayments) {}

  execute({ checkoutId }: VerifyCheckoutPayment): Promise<Checkout> {
    // The return page needs no sign-in: the provider's answer is reused for a few seconds.
    return this.payments.settleAndWait(checkoutId, () =>
      this.payments.verifyAndSettle(checkoutId, { cached: true }),
    );
  }
}
