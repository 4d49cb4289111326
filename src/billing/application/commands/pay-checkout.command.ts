import { Command } from '@nestjs/cqrs';
import type { Checkout } from '../../domain/checkout.decider';

/** The TEST hosted page's Pay: the built-in test provider confirms the payment at once. */
export class PayCheckout extends Command<Checkout> {
  constructor(readonly checkoutId: string) {
    super();
  }
}
