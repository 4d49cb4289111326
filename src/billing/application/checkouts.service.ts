import { Inject, Injectable, Logger } from '@nestjs/common';
import { AccountsService } from '../../accounts/application/accounts.service';
import { APP_CONFIG, AppConfig, CreditPackage } from '../../config/app-config';
import { CLOCK, Clock } from '../../shared/clock';
import { DomainError, invalid, notFound } from '../../shared/domain-error';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import { isIdOf, newId } from '../../shared/ids';
import { CheckoutMetrics } from '../../shared/metrics/checkout.metrics';
import { ProjectionsService } from '../../shared/projections/projections.service';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import * as checkout from '../domain/checkout.decider';
import { checkoutStream } from '../domain/checkout.events';
import {
  CHECKOUTS,
  CHECKOUTS_PROJECTION,
  CheckoutView,
  OPEN_CHECKOUTS,
  OPEN_PARTITION,
  OpenCheckoutView,
  toCheckoutObject,
} from '../projections/checkouts.projection';
import { PAYMENT_PROVIDERS, PaymentProviders } from '../ports/payment-provider.port';
import { CheckoutPayments } from './checkout-payments.service';

export interface CheckoutOwner {
  readonly accountId: string;
  readonly walletId: string;
  readonly environment: 'TEST' | 'LIVE';
}

export type CheckoutObject = ReturnType<typeof toCheckoutObject>;

const MAX_URL_LENGTH = 2048;

/** Starting and reading checkouts, the LIVE hand-over to the provider, and the expiry sweep. */
@Injectable()
export class CheckoutsService {
  private readonly logger = new Logger('checkouts');

  constructor(
    private readonly aggregates: AggregateStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly projections: ProjectionsService,
    private readonly payments: CheckoutPayments,
    private readonly accounts: AccountsService,
    @Inject(PAYMENT_PROVIDERS) private readonly providers: PaymentProviders,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly metrics: CheckoutMetrics,
  ) {}

  packageById(id: string): CreditPackage | undefined {
    return this.config.packages.find((p) => p.id === id);
  }

  /** POST /v1/billing/checkout: answers once the read model shows the new checkout. */
  async start(owner: CheckoutOwner, body: unknown): Promise<CheckoutObject> {
    const input = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<
      string,
      unknown
    >;
    const packageId = requiredString(input, 'package_id');
    const pkg = this.packageById(packageId);
    if (!pkg)
      throw invalid(
        'unknown_package',
        `No package ${JSON.stringify(packageId).slice(0, 80)}; GET /v1/billing lists them`,
        'package_id',
      );
    const successUrl = absoluteHttpUrl(requiredString(input, 'success_url'), 'success_url');
    const cancelUrl =
      input.cancel_url === undefined || input.cancel_url === null
        ? null
        : absoluteHttpUrl(stringParam(input, 'cancel_url'), 'cancel_url');
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
      }),
    );
    if (!result.ok) throw result.error;
    await this.projections.waitFor(result.value.position, [CHECKOUTS_PROJECTION]);
    const doc = await this.reads.get<CheckoutView>(CHECKOUTS, checkoutId);
    return toCheckoutObject(doc!, this.clock.now());
  }

  /** GET /v1/billing/checkout/:id: only for the wallet and environment that created it. */
  async get(owner: CheckoutOwner, id: unknown): Promise<CheckoutObject> {
    if (!isIdOf('chk', id)) throw notFound('checkout', 'id');
    const doc = await this.reads.get<CheckoutView>(CHECKOUTS, id);
    if (!doc || doc.walletId !== owner.walletId || doc.environment !== owner.environment)
      throw notFound('checkout', 'id');
    if (doc.status === 'succeeded' && doc.succeededPosition) {
      // "succeeded" promises the credits are visible: the wallet's read model has reached them too.
      await this.projections.waitFor(BigInt(doc.succeededPosition), ['wallet-balances']);
    }
    return toCheckoutObject(doc, this.clock.now());
  }

  /** The checkout folded from its stream: what the hosted pages act on. Null when unknown. */
  async load(id: unknown): Promise<checkout.Checkout | null> {
    if (!isIdOf('chk', id)) return null;
    const state = await this.payments.load(id);
    return state.started ? state : null;
  }

  /**
   * LIVE: hands the shopper to the provider. The transaction is initialized once (its reference
   * is the checkout id, so the provider itself refuses a second one); reloads reuse its page.
   */
  async providerRedirect(id: string): Promise<string | null> {
    const state = await this.load(id);
    if (!state?.started) throw checkout.checkoutMissing();
    if (checkout.statusAt(state, this.clock.now()) !== 'pending' || state.payment) return null;
    if (state.paymentRedirectUrl) return state.paymentRedirectUrl;
    const s = state.started;
    const provider = this.providers.forEnvironment(s.environment);
    if (!provider || provider.name !== s.provider) {
      throw new DomainError(
        'unavailable',
        'payments_unavailable',
        'Payments are not available for this checkout right now',
      );
    }
    const account = await this.accounts.get(s.accountId);
    let redirectUrl: string | null;
    try {
      const started = await provider.startPayment({
        checkoutId: s.checkoutId,
        reference: s.reference,
        amount: s.amount,
        currency: s.currency,
        callbackUrl: `${this.config.publicUrl}/checkout/${s.checkoutId}/return`,
        email: account?.email ?? `${s.accountId}@invalid.example`,
      });
      redirectUrl = started.redirectUrl;
    } catch (error) {
      // A racing click may have initialized it first (the provider refuses a duplicate reference).
      const again = await this.load(id);
      if (again?.paymentRedirectUrl) return again.paymentRedirectUrl;
      throw error;
    }
    if (!redirectUrl) return null;
    const recorded = await this.payments.recordPaymentStarted(id, redirectUrl);
    return recorded.paymentRedirectUrl ?? redirectUrl;
  }

  /** Records CheckoutExpired for unpaid checkouts whose time is up. Returns how many. */
  async sweepExpired(limit = 100): Promise<number> {
    const now = this.clock.now();
    const open = await this.reads.list<OpenCheckoutView>(OPEN_CHECKOUTS, {
      partition: OPEN_PARTITION,
      order: 'asc',
      limit,
    });
    let expired = 0;
    for (const doc of open) {
      if (Date.parse(doc.expiresAt) > now.getTime()) break;
      const result = await this.aggregates.handle(checkoutStream(doc.id), checkout.checkoutDecider, (c) =>
        checkout.expire(c, { now }),
      );
      this.metrics.finished(checkout.finishedBy(result));
      if (result.ok && result.value.events.length > 0) expired++;
    }
    if (expired > 0) this.logger.log(`expired ${expired} unpaid checkout(s)`);
    return expired;
  }
}

function stringParam(input: Record<string, unknown>, name: string): string {
  const value = input[name];
  if (typeof value !== 'string') throw invalid('parameter_invalid', `${name} must be a string`, name);
  return value;
}

function requiredString(input: Record<string, unknown>, name: string): string {
  if (input[name] === undefined || input[name] === null || input[name] === '') {
    throw invalid('parameter_missing', `${name} is required`, name);
  }
  return stringParam(input, name);
}

/** An absolute http(s) URL, as given (the merchant's own page). */
function absoluteHttpUrl(value: string, name: string): string {
  const refuse = () =>
    invalid(
      'invalid_url',
      `${name} must be an absolute http or https URL, such as https://shop.example/paid`,
      name,
    );
  const hasControl = [...value].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);
  if (value.length > MAX_URL_LENGTH || value.trim() !== value || hasControl) throw refuse();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse();
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) throw refuse();
  if (!/^https?:\/\//i.test(value)) throw refuse(); // e.g. "http:shop.example" parses but is not absolute as written
  return value;
}
