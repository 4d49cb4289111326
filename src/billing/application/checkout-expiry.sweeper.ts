import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig, runsProcessManagersHere } from '../../config/app-config';
import { CLOCK, Clock } from '../../shared/clock';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import { CheckoutMetrics } from '../../shared/metrics/checkout.metrics';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import * as checkout from '../domain/checkout.decider';
import { checkoutStream } from '../domain/checkout.events';
import { CheckoutPayments } from './checkout-payments.service';
import { OPEN_CHECKOUTS, OPEN_PARTITION, OpenCheckoutView } from '../projections/checkouts.projection';
import { plural } from '../../shared/wording';

/**
 * Records CheckoutExpired for unpaid checkouts past their time, every so often. Reads already
 * show them expired (computed lazily); this makes it part of the record. A checkout whose
 * shopper was handed to the provider is verified with it first: a payment made there is
 * settled (late, but exactly what was asked), a failed one fails the checkout, and only one
 * still open at the provider expires (a payment after that is refunded). Runs only where
 * process managers run (not in the operator CLI).
 */
@Injectable()
export class CheckoutExpirySweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('checkout-expiry');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly aggregates: AggregateStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly metrics: CheckoutMetrics,
    private readonly payments: CheckoutPayments,
  ) {}

  onApplicationBootstrap(): void {
    if (!runsProcessManagersHere(this.config)) return;
    const every = Math.min(60_000, Math.max(200, Math.floor(this.config.checkoutTtlMs / 2)));
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.sweep()
        .catch((error) => this.logger.warn(`sweep failed, retried next round: ${String(error)}`))
        .finally(() => (this.running = null));
    }, every);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Records CheckoutExpired for unpaid checkouts whose time is up. Returns how many. */
  async sweep(limit = 100): Promise<number> {
    const now = this.clock.now();
    const open = await this.reads.list<OpenCheckoutView>(OPEN_CHECKOUTS, {
      partition: OPEN_PARTITION,
      order: 'asc',
      limit,
    });
    let expired = 0;
    for (const doc of open) {
      if (Date.parse(doc.expiresAt) > now.getTime()) break;
      if (!(await this.unpaidAtProvider(doc.id))) continue;
      const result = await this.aggregates.handle(checkoutStream(doc.id), checkout.checkoutDecider, (c) =>
        checkout.expire(c, { now }),
      );
      this.metrics.finished(checkout.finishedBy(result));
      if (result.ok && result.value.events.length > 0) expired++;
    }
    if (expired > 0) this.logger.log(`expired ${plural(expired, 'unpaid checkout')}`);
    return expired;
  }

  /** True when nothing was paid: never handed to the provider, or the provider says still open. */
  private async unpaidAtProvider(checkoutId: string): Promise<boolean> {
    const state = await this.payments.load(checkoutId);
    if (!state.paymentRedirectUrl || state.payment) return !state.payment;
    try {
      const after = await this.payments.verifyAndSettle(checkoutId);
      return after.status === 'pending' && !after.payment;
    } catch (error) {
      this.logger.warn(
        `checkout ${checkoutId}: provider not reachable, expiry retried next round: ${String(error)}`,
      );
      return false;
    }
  }
}
