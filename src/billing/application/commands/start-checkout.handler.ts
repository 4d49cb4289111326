import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { CLOCK, Clock } from '../../../shared/clock';
import { invalid } from '../../../shared/domain-error';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { newId } from '../../../shared/ids';
import { unwrap } from '../../../shared/result';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import { READ_STORE, ReadStore } from '../../../shared/read-store/read-store.port';
import * as checkout from '../../domain/checkout.decider';
import { checkoutStream } from '../../domain/checkout.events';
import { parseReturnUrl } from '../../domain/return-url';
import { PAYMENT_PROVIDERS, PaymentProviders } from '../../ports/payment-provider.port';
import {
  CHECKOUTS,
  CHECKOUTS_PROJECTION,
  CheckoutObject,
  CheckoutView,
  toCheckoutObject,
} from '../../projections/checkouts.projection';
import { StartCheckout } from './start-checkout.command';

@CommandHandler(StartCheckout)
export class StartCheckoutHandler implements ICommandHandler<StartCheckout, CheckoutObject> {
  constructor(
    private readonly aggregates: AggregateStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly projections: ProjectionsService,
    @Inject(PAYMENT_PROVIDERS) private readonly providers: PaymentProviders,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ owner, request, actor }: StartCheckout): Promise<CheckoutObject> {
    const pkg = this.config.packages.find((p) => p.id === request.packageId);
    if (!pkg) {
      throw invalid(
        'unknown_package',
        `No package ${JSON.stringify(request.packageId).slice(0, 80)}; GET /v1/billing lists them`,
        'package_id',
      );
    }
    const successUrl = unwrap(parseReturnUrl(request.successUrl, 'success_url'));
    const cancelUrl =
      request.cancelUrl === null ? null : unwrap(parseReturnUrl(request.cancelUrl, 'cancel_url'));
    const provider = this.providers.forEnvironment(owner.environment);
    if (!provider) {
      throw invalid(
        'payments_unavailable',
        `${owner.environment} payments are not configured on this service yet`,
      );
    }
    const checkoutId = newId('chk');
    const result = await this.aggregates.handle(checkoutStream(checkoutId), checkout.checkoutDecider, (c) =>
      checkout.start(c, {
        checkoutId,
        walletId: owner.walletId,
        accountId: owner.accountId,
        environment: owner.environment,
        packageId: pkg.id,
        amount: pkg.amount,
        currency: pkg.currency,
        sms: pkg.sms,
        successUrl,
        cancelUrl,
        provider: provider.name === 'paystack' ? 'paystack' : 'test',
        reference: checkoutId,
        ttlMs: this.config.checkoutTtlMs,
        now: this.clock.now(),
        ...(actor ? { actor } : {}),
      }),
    );
    if (!result.ok) throw result.error;
    await this.projections.waitFor(result.value.position, [CHECKOUTS_PROJECTION]);
    const doc = await this.reads.get<CheckoutView>(CHECKOUTS, checkoutId);
    return toCheckoutObject(doc!, this.clock.now());
  }
}
