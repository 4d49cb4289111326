import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { CLOCK, Clock } from '../../shared/clock';
import { DomainError } from '../../shared/domain-error';
import { ok } from '../../shared/result';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import { EVENT_STORE, EventStore } from '../../shared/event-store/event-store.port';
import { CheckoutMetrics } from '../../shared/metrics/checkout.metrics';
import { ProjectionsService } from '../../shared/projections/projections.service';
import { WalletService } from '../../wallet/application/wallet.service';
import * as checkout from '../domain/checkout.decider';
import { checkoutStream } from '../domain/checkout.events';
import { CHECKOUTS_PROJECTION } from '../projections/checkouts.projection';
import {
  PAYMENT_PROVIDERS,
  PaymentProvider,
  PaymentProviders,
  RefundRefusedError,
  VerifiedPayment,
} from '../ports/payment-provider.port';
import { TEST_CARD } from '../domain/saved-card';
import { VerificationCache } from './verification-cache';
import { OneAtATime } from '../../shared/one-at-a-time';

type Checkout = checkout.Checkout;

/** Read models a shopper's redirect waits for, so the merchant's next read sees the outcome. */
const REDIRECT_READ_MODELS = [CHECKOUTS_PROJECTION, 'wallet-balances'];

/**
 * The payment process: PaymentConfirmed → credits on the wallet (keyed by the checkout id) →
 * CheckoutSucceeded. The hosted pages and the webhook run it inline; the process manager runs
 * it from the event log, so a crash between any two steps is finished from the log alone. Every
 * step is idempotent, and within this process the steps of one checkout run one at a time.
 */
@Injectable()
export class CheckoutPayments {
  private readonly logger = new Logger('checkout-payments');
  private readonly locks = new OneAtATime();
  private readonly verifications: VerificationCache;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly aggregates: AggregateStore,
    private readonly wallets: WalletService,
    private readonly projections: ProjectionsService,
    @Inject(PAYMENT_PROVIDERS) private readonly providers: PaymentProviders,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly metrics: CheckoutMetrics,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.verifications = new VerificationCache(config.paymentVerifyCacheMs, () => this.clock.now().getTime());
  }

  async load(checkoutId: string): Promise<Checkout> {
    return (await this.aggregates.load(checkoutStream(checkoutId), checkout.checkoutDecider)).state;
  }

  /** Runs a checkout command (serialised per checkout here; expected revisions across processes). */
  private command(checkoutId: string, decide: (c: Checkout) => ReturnType<typeof checkout.succeed>) {
    return this.serialize(checkoutId, async () => {
      const recorded = await this.aggregates.handle(
        checkoutStream(checkoutId),
        checkout.checkoutDecider,
        decide,
      );
      this.metrics.finished(checkout.finishedBy(recorded)); // declined, or a failed payment
      return recorded;
    });
  }

  /**
   * Finishes a confirmed payment: credits the wallet once (the wallet refuses a second credit for
   * the same checkout id), then records CheckoutSucceeded once. Nothing to do otherwise.
   */
  complete(checkoutId: string): Promise<Checkout> {
    return this.serialize(checkoutId, async () => {
      const state = await this.load(checkoutId);
      if (!state.started || !state.payment || state.status === 'succeeded') return state;
      const s = state.started;
      const credited = await this.wallets.addCredits(s.walletId, {
        sourceId: s.checkoutId,
        source: 'purchase',
        sms: s.sms,
        reason: `Checkout ${s.checkoutId} (${s.packageId})`,
      });
      if (!credited.ok) throw credited.error;
      const succeeded = await this.aggregates.handle(
        checkoutStream(checkoutId),
        checkout.checkoutDecider,
        (c) => checkout.succeed(c, { now: this.clock.now() }),
      );
      this.metrics.finished(checkout.finishedBy(succeeded));
      if (!succeeded.ok) throw succeeded.error;
      return succeeded.value.state;
    });
  }

  /** The TEST page's Pay: the test provider's payment is this very decision, recorded durably. */
  async payWithTestProvider(checkoutId: string): Promise<Checkout> {
    const state = await this.load(checkoutId);
    if (!state.started || state.started.provider !== 'test') throw checkout.checkoutMissing();
    const s = state.started;
    const confirmed = await this.command(checkoutId, (c) =>
      checkout.confirmPayment(c, {
        reference: s.reference,
        amount: s.amount,
        currency: s.currency,
        provider: 'test',
        now: this.clock.now(),
        payingNow: true,
        card: TEST_CARD,
      }),
    );
    if (!confirmed.ok) throw confirmed.error;
    return this.complete(checkoutId);
  }

  /**
   * Asks the checkout's provider, server to server, what happened to its payment, and acts on
   * the answer exactly like the webhook: succeeded → confirm (amount and currency checked) and
   * complete, or refund money the checkout will not credit; failed → the checkout fails;
   * pending → nothing yet. The browser is never trusted. A checkout that was handed to the
   * provider is asked even once closed: a payment made there late is never just dropped.
   * `cached`: the hosted pages (no sign-in) reuse an answer a few seconds old.
   */
  async verifyAndSettle(checkoutId: string, options: { cached?: boolean } = {}): Promise<Checkout> {
    const state = await this.load(checkoutId);
    if (!state.started) throw checkout.checkoutMissing();
    if (state.status === 'succeeded' || state.refund) return state;
    if (state.payment) return this.complete(checkoutId);
    if (state.status !== 'pending' && !state.paymentRedirectUrl) return state; // nothing can have been paid
    const provider = this.providerOf(state);
    const reference = state.started.reference;
    const verified = options.cached
      ? await this.verifications.verify(checkoutId, () => provider.verifyPayment(reference))
      : await provider.verifyPayment(reference);
    return this.settleVerified(checkoutId, verified);
  }

  providerOf(state: Checkout): PaymentProvider {
    const provider = this.providers.forEnvironment(state.started!.environment);
    if (!provider || provider.name !== state.started!.provider) {
      throw new DomainError(
        'unavailable',
        'payments_unavailable',
        'Payments are not available for this checkout right now',
      );
    }
    return provider;
  }

  /**
   * Acts on what the provider said of the checkout's payment (verified, or a saved card's charge):
   * succeeded → confirmed (amount and currency checked) and completed; failed → the checkout
   * fails; pending → nothing yet.
   */
  async settleVerified(checkoutId: string, verified: VerifiedPayment): Promise<Checkout> {
    if (verified.status === 'pending') return this.load(checkoutId);
    const now = this.clock.now();
    if (verified.status === 'failed') {
      const failed = await this.command(checkoutId, (c) =>
        c.status === 'pending'
          ? checkout.fail(c, { reason: verified.reason ?? 'payment failed', now })
          : ok([]),
      );
      if (!failed.ok)
        this.logger.warn(
          `checkout ${checkoutId}: provider reported a failed payment, not recorded (${failed.error.code})`,
        );
      return this.load(checkoutId);
    }
    const state = await this.load(checkoutId);
    const confirmed = await this.command(checkoutId, (c) =>
      checkout.confirmPayment(c, {
        reference: verified.reference,
        amount: verified.amount,
        currency: verified.currency,
        provider: state.started!.provider,
        now,
        card: verified.card,
      }),
    );
    if (!confirmed.ok) {
      this.logger.error(
        `checkout ${checkoutId}: verified payment ${verified.reference} refused (${confirmed.error.code})`,
      );
      return this.load(checkoutId);
    }
    const after = confirmed.value.state;
    if (after.refund?.status === 'requested' && confirmed.value.events.length > 0) {
      this.logger.warn(`checkout ${checkoutId}: refunding ${verified.reference}: ${after.refund.reason}`);
    }
    if (!after.payment) return after; // failed or refunded: nothing to credit
    return this.complete(checkoutId);
  }

  /**
   * Gives back money the checkout will not credit (RefundRequested), through its provider, once:
   * the outcome is recorded (PaymentRefunded, or RefundFailed for an operator when the provider
   * refuses). Any other error is thrown: the process manager tries again.
   */
  refund(checkoutId: string): Promise<Checkout> {
    return this.serialize(checkoutId, async () => {
      const state = await this.load(checkoutId);
      const refund = state.refund;
      if (!state.started || refund?.status !== 'requested') return state;
      const provider = this.providerOf(state);
      const reference = state.started.reference;
      try {
        const accepted = await provider.refundPayment({ reference, ...refund });
        await this.recordDecision(checkoutId, (c) =>
          checkout.recordRefund(c, { refundId: accepted.refundId, now: this.clock.now() }),
        );
        this.logger.log(
          `checkout ${checkoutId}: refunded ${refund.amount} ${refund.currency} (${reference})`,
        );
      } catch (error) {
        if (!(error instanceof RefundRefusedError)) throw error;
        this.logger.error(
          `checkout ${checkoutId}: the provider refused to refund ${reference} (${error.message}); refund it by hand`,
        );
        await this.recordDecision(checkoutId, (c) =>
          checkout.recordRefundFailure(c, { reason: error.message, now: this.clock.now() }),
        );
      }
      return this.load(checkoutId);
    });
  }

  /** Records a decision from inside `serialize` (where `command` would wait for itself). */
  private async recordDecision(
    checkoutId: string,
    decide: (c: Checkout) => ReturnType<typeof checkout.succeed>,
  ): Promise<void> {
    const recorded = await this.aggregates.handle(
      checkoutStream(checkoutId),
      checkout.checkoutDecider,
      decide,
    );
    if (!recorded.ok) throw recorded.error;
  }

  /** Records the shopper's Decline / Cancel on an unpaid checkout. */
  async decline(checkoutId: string, reason: string): Promise<Checkout> {
    const failed = await this.command(checkoutId, (c) => checkout.fail(c, { reason, now: this.clock.now() }));
    if (!failed.ok && failed.error.kind === 'not_found') throw failed.error;
    // The shopper goes back to the merchant, whose next read must already say failed.
    if (failed.ok) await this.projections.waitFor(failed.value.position, [CHECKOUTS_PROJECTION]);
    return this.load(checkoutId);
  }

  /** Records where the provider takes the payment (once; a reload gets the same page). */
  async recordPaymentStarted(checkoutId: string, redirectUrl: string): Promise<Checkout> {
    const started = await this.command(checkoutId, (c) =>
      checkout.startPayment(c, { redirectUrl, now: this.clock.now() }),
    );
    return started.ok ? started.value.state : this.load(checkoutId);
  }

  /**
   * Runs `step`, then waits (up to `timeoutMs`) until a confirmed payment has become
   * CheckoutSucceeded, which the process manager finishes when the inline step could not, and
   * until the read models show it. Returns the checkout as it then stands: the caller redirects
   * either way, since GET /v1/billing/checkout/:id tells the truth.
   */
  async settleAndWait(
    checkoutId: string,
    step: () => Promise<Checkout>,
    timeoutMs = 15_000,
  ): Promise<Checkout> {
    const deadline = Date.now() + timeoutMs;
    let state: Checkout | null = null;
    try {
      state = await step();
    } catch (error) {
      if (error instanceof DomainError) throw error;
      this.logger.warn(
        `checkout ${checkoutId}: inline payment step failed, the process manager resumes it: ${String(error)}`,
      );
    }
    for (;;) {
      state = state ?? (await this.load(checkoutId));
      const settling = state.status !== 'succeeded' && state.payment !== null;
      if (!settling || Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
      state = await this.complete(checkoutId).catch(() => null);
    }
    if (state.status === 'succeeded') {
      const [last] = await this.events.readStream(checkoutStream(checkoutId), {
        direction: 'backwards',
        limit: 1,
      });
      if (last) await this.projections.waitFor(last.position, REDIRECT_READ_MODELS).catch(() => undefined);
    } else {
      await this.projections.catchUp([CHECKOUTS_PROJECTION]).catch(() => undefined);
    }
    return state;
  }

  private serialize<T>(key: string, run: () => Promise<T>): Promise<T> {
    return this.locks.run(key, run);
  }
}
