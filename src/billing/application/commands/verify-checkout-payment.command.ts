import { Command } from '@nestjs/cqrs';
import type { Checkout } from '../../domain/checkout.decider';

/**
 * The shopper is back from the provider: ask the provider, server to server, what happened (the
 * URL is never trusted), settle accordingly and answer the checkout as it then stands.
 */
export class VerifyCheckoutPayment extends Command<Checkout> {
  constructor(readonly checkoutId: string) {
    super();
  }
}
