import { Command } from '@nestjs/cqrs';
import type { Checkout } from '../../domain/checkout.decider';

/** The shopper's Decline (TEST) or Cancel (LIVE) on the hosted page. */
export class DeclineCheckout extends Command<Checkout> {
  constructor(readonly checkoutId: string) {
    super();
  }
}
