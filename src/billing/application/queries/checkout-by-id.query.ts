import { Query } from '@nestjs/cqrs';
import type { CheckoutObject } from '../../projections/checkouts.projection';
import type { CheckoutOwner } from '../commands/start-checkout.command';

/** A checkout, for the wallet and environment that started it only (else 404). */
export class CheckoutById extends Query<CheckoutObject> {
  constructor(
    readonly owner: CheckoutOwner,
    readonly id: unknown,
  ) {
    super();
  }
}
