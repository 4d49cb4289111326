import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../shared/actor';
import type { CheckoutObject } from '../../projections/checkouts.projection';

/** Whose wallet a checkout credits. */
export interface CheckoutOwner {
  readonly accountId: string;
  readonly walletId: string;
  readonly environment: 'TEST' | 'LIVE';
}

export interface CheckoutRequest {
  readonly packageId: string;
  readonly successUrl: string;
  readonly cancelUrl: string | null;
}

/** Start paying for a package (POST /v1/billing/checkout, the console's Buy): answers once readable. */
export class StartCheckout extends Command<CheckoutObject> {
  constructor(
    readonly owner: CheckoutOwner,
    readonly request: CheckoutRequest,
    readonly actor?: Actor,
  ) {
    super();
  }
}
