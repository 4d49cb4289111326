import { Query } from '@nestjs/cqrs';
import type { Checkout } from '../../domain/checkout.decider';

/**
 * A checkout as its hosted page acts on it: folded from its stream (not the read model), by id
 * alone since the shopper has no key. Null for an unknown or malformed id.
 */
export class HostedCheckout extends Query<Checkout | null> {
  constructor(readonly id: unknown) {
    super();
  }
}
