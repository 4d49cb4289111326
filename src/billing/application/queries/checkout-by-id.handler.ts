import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { notFound } from '../../../shared/domain-error';
import { isIdOf } from '../../../shared/ids';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import { READ_STORE, ReadStore } from '../../../shared/read-store/read-store.port';
import { walletBalanceProjection } from '../../../wallet/projections/wallet-balance.projection';
import {
  CHECKOUTS,
  CheckoutObject,
  CheckoutView,
  toCheckoutObject,
} from '../../projections/checkouts.projection';
import { CheckoutById } from './checkout-by-id.query';

@QueryHandler(CheckoutById)
export class CheckoutByIdHandler implements IQueryHandler<CheckoutById, CheckoutObject> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly projections: ProjectionsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ owner, id }: CheckoutById): Promise<CheckoutObject> {
    if (!isIdOf('chk', id)) throw notFound('checkout', 'id');
    const doc = await this.reads.get<CheckoutView>(CHECKOUTS, id);
    if (!doc || doc.walletId !== owner.walletId || doc.environment !== owner.environment)
      throw notFound('checkout', 'id');
    if (doc.status === 'succeeded' && doc.succeededPosition) {
      // "succeeded" promises the credits are visible: the wallet's read model has reached them too.
      await this.projections.waitFor(BigInt(doc.succeededPosition), [walletBalanceProjection.name]);
    }
    return toCheckoutObject(doc, this.clock.now());
  }
}
