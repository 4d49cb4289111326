import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { isIdOf } from '../../../shared/ids';
import type { Checkout } from '../../domain/checkout.decider';
import { CheckoutPayments } from '../checkout-payments.service';
import { HostedCheckout } from './hosted-checkout.query';

@QueryHandler(HostedCheckout)
export class HostedCheckoutHandler implements IQueryHandler<HostedCheckout, Checkout | null> {
  constructor(private readonly payments: CheckoutPayments) {}

  async execute({ id }: HostedCheckout): Promise<Checkout | null> {
    if (!isIdOf('chk', id)) return null;
    const state = await this.payments.load(id);
    return state.started ? state : null;
  }
}
