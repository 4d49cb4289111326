import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { CLOCK, Clock } from '../../shared/clock';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import { EVENT_STORE, EventStore } from '../../shared/event-store/event-store.port';
import type { AutoTopUpTriggered } from '../../wallet/domain/wallet-care.events';
import { WalletCareService } from '../../wallet/application/wallet-care.service';
import * as checkout from '../domain/checkout.decider';
import { checkoutStream, type CheckoutStarted, type PaymentConfirmed } from '../domain/checkout.events';
import { SavedCard, saveCard, savedCardDecider, savedCardStream } from '../domain/saved-card';
import { PAYMENT_PROVIDERS, PaymentProviders } from '../ports/payment-provider.port';
import { CheckoutPayments } from './checkout-payments.service';

/**
 * Auto top-up's charge: a top-up is a checkout (its id the top-up's id) paid with the saved card
 * instead of by a shopper, so it is credited exactly like one: PaymentConfirmed → CreditsAdded
 * keyed by the checkout id → CheckoutSucceeded, each step idempotent. The card is charged at most
 * once per top-up: PaymentStarted is recorded before the charge, and a top-up found with it (a
 * crash, a batch run again, a second process) is verified with the provider instead, as is one
 * whose charge timed out, by the checkout expiry sweep at the latest.
 */
@Injectable()
export class AutoTopUps {
  private readonly logger = new Logger('auto-topup');

  constructor(
    private readonly aggregates: AggregateStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly payments: CheckoutPayments,
    private readonly care: WalletCareService,
    @Inject(PAYMENT_PROVIDERS) private readonly providers: PaymentProviders,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The wallet's saved card, if a payment saved one. */
  async savedCard(walletId: string): Promise<SavedCard['saved']> {
    return (await this.aggregates.load(savedCardStream(walletId), savedCardDecider)).state.saved;
  }

  /** Saves the card a confirmed payment was made with (the newest one is the one charged). */
  async saveCardOf(checkoutId: string): Promise<void> {
    const state = await this.payments.load(checkoutId);
    const card = state.payment && state.started ? await this.cardOf(checkoutId) : null;
    if (!card || !state.started) return;
    const s = state.started;
    const saved = await this.aggregates.handle(savedCardStream(s.walletId), savedCardDecider, (c) =>
      saveCard(c, {
        walletId: s.walletId,
        checkoutId,
        provider: s.provider,
        card,
        savedAt: this.clock.now().toISOString(),
      }),
    );
    if (!saved.ok) throw saved.error;
  }

  /** Starts and charges the top-up (once), or records why it cannot be. */
  async run(trigger: AutoTopUpTriggered['data']): Promise<void> {
    const failed = (reason: string) =>
      this.care.recordTopUpOutcome(trigger.walletId, trigger.topUpId, { succeeded: false, reason });
    const pkg = this.config.packages.find((p) => p.id === trigger.packageId);
    if (!pkg) return failed(`the package ${trigger.packageId} is no longer sold`);
    const saved = await this.savedCard(trigger.walletId);
    if (!saved) return failed('no card is saved');
    const provider = this.providers.forEnvironment(trigger.environment);
    if (!provider || provider.name !== saved.provider) return failed('payments are not available right now');

    const checkoutId = trigger.topUpId;
    const started = await this.aggregates.handle(checkoutStream(checkoutId), checkout.checkoutDecider, (c) =>
      checkout.start(c, {
        checkoutId,
        walletId: trigger.walletId,
        accountId: trigger.accountId,
        environment: trigger.environment,
        packageId: pkg.id,
        amount: pkg.amount,
        currency: pkg.currency,
        sms: pkg.sms,
        successUrl: `${this.config.publicUrl}/console/billing`,
        cancelUrl: null,
        provider: saved.provider,
        reference: checkoutId,
        ttlMs: this.config.checkoutTtlMs,
        now: this.clock.now(),
        origin: 'auto_topup',
      }),
    );
    if (!started.ok) throw started.error;
    const state = started.value.state;
    if (state.status !== 'pending' || state.payment) return; // decided already: its outcome follows from the log
    if (state.paymentRedirectUrl) {
      // Charged before (a crash, a second run): ask, never charge twice.
      await this.payments.verifyAndSettle(checkoutId);
      return;
    }
    await this.payments.recordPaymentStarted(checkoutId, `${this.config.publicUrl}/console/billing`);
    let verified;
    try {
      verified = await provider.chargeCard({
        reference: checkoutId,
        card: saved.card,
        amount: pkg.amount,
        currency: pkg.currency,
        checkoutId,
      });
    } catch (error) {
      // Unknown (a timeout): the charge may still go through. The expiry sweep asks the provider.
      this.logger.warn(
        `auto top-up ${checkoutId}: charge outcome unknown, verified later: ${(error as Error).message}`,
      );
      return;
    }
    await this.payments.settleVerified(checkoutId, verified);
  }

  /** A finished checkout that was a top-up: its outcome on the wallet's care (once). */
  async recordOutcome(checkoutId: string, outcome: 'succeeded' | 'failed' | 'expired'): Promise<void> {
    const [first] = await this.events.readStream(checkoutStream(checkoutId), { limit: 1 });
    const started = (first as unknown as CheckoutStarted | undefined)?.data;
    if (!started || started.origin !== 'auto_topup') return;
    if (outcome === 'succeeded') {
      return this.care.recordTopUpOutcome(started.walletId, checkoutId, {
        succeeded: true,
        sms: started.sms,
      });
    }
    const state = await this.payments.load(checkoutId);
    const reason =
      outcome === 'expired'
        ? 'the payment provider did not confirm the charge in time'
        : (state.failureReason ?? 'the charge failed');
    return this.care.recordTopUpOutcome(started.walletId, checkoutId, { succeeded: false, reason });
  }

  private async cardOf(checkoutId: string) {
    const history = await this.events.readStream(checkoutStream(checkoutId));
    const confirmed = history.find((e) => e.type === 'PaymentConfirmed') as unknown as
      PaymentConfirmed | undefined;
    return confirmed?.data.card ?? null;
  }
}
