import type { Actor } from '../../shared/actor';
import { stateAfterAny, type Decider, type Decision } from '../../shared/decider';
import { DomainError, invalid } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import type { CheckoutEvent, CheckoutStarted, CheckoutProvider, ReusableCard } from './checkout.events';

export type CheckoutStatus = 'pending' | 'succeeded' | 'failed' | 'expired';

export interface ConfirmedPayment {
  readonly reference: string;
  readonly amount: number;
  readonly currency: string;
  readonly provider: CheckoutProvider;
  readonly confirmedAt: string;
}

export interface Checkout {
  /** Null until CheckoutStarted. */
  readonly started: CheckoutStarted['data'] | null;
  /** As recorded; time-based expiry is applied by `statusAt`. */
  readonly status: CheckoutStatus;
  readonly paymentRedirectUrl: string | null;
  readonly payment: ConfirmedPayment | null;
  /** Credits added, once succeeded; 0 before. */
  readonly creditedSms: number;
  readonly failureReason: string | null;
  readonly settledAt: string | null;
  /** Money the provider took that this checkout gives back instead of crediting. */
  readonly refund: Refund | null;
}

export interface Refund {
  readonly status: 'requested' | 'refunded' | 'failed';
  readonly amount: number;
  readonly currency: string;
  readonly reason: string;
}

export const initialState = (): Checkout => ({
  started: null,
  status: 'pending',
  paymentRedirectUrl: null,
  payment: null,
  creditedSms: 0,
  failureReason: null,
  settledAt: null,
  refund: null,
});

export function evolve(c: Checkout, e: CheckoutEvent): Checkout {
  switch (e.type) {
    case 'CheckoutStarted':
      return { ...c, started: e.data, status: 'pending' };
    case 'PaymentStarted':
      return { ...c, paymentRedirectUrl: e.data.redirectUrl };
    case 'PaymentConfirmed':
      return { ...c, payment: { ...e.data } };
    case 'CheckoutSucceeded':
      return { ...c, status: 'succeeded', creditedSms: e.data.sms, settledAt: e.data.succeededAt };
    case 'CheckoutFailed':
      return { ...c, status: 'failed', failureReason: e.data.reason, settledAt: e.data.failedAt };
    case 'CheckoutExpired':
      return { ...c, status: 'expired', settledAt: e.data.expiredAt };
    case 'RefundRequested': {
      const { amount, currency, reason } = e.data;
      return { ...c, refund: { status: 'requested', amount, currency, reason } };
    }
    case 'PaymentRefunded':
      return c.refund ? { ...c, refund: { ...c.refund, status: 'refunded' } } : c;
    case 'RefundFailed':
      return c.refund ? { ...c, refund: { ...c.refund, status: 'failed' } } : c;
    default:
      return c;
  }
}

export const checkoutDecider: Decider<Checkout, CheckoutEvent> = { initialState, evolve };

type CheckoutDecision = Decision<CheckoutEvent, DomainError>;

/**
 * The status a reader sees at `now`: a pending checkout that was never paid is expired once
 * `expiresAt` has passed, whether or not the sweep has recorded CheckoutExpired yet. A paid one
 * stays pending until its credits are on the wallet.
 */
export function statusAt(c: Checkout, now: Date): CheckoutStatus {
  if (
    c.status === 'pending' &&
    c.started &&
    c.payment === null &&
    now.getTime() >= Date.parse(c.started.expiresAt)
  ) {
    return 'expired';
  }
  return c.status;
}

export const checkoutMissing = () =>
  new DomainError('not_found', 'resource_missing', 'No such checkout', 'id');
const expired = () => new DomainError('conflict', 'checkout_expired', 'This checkout has expired');
const failed = () => new DomainError('conflict', 'checkout_failed', 'This checkout was declined or failed');
const alreadyPaid = () => new DomainError('conflict', 'checkout_paid', 'This checkout is already paid');

export interface StartCheckout {
  readonly checkoutId: string;
  readonly walletId: string;
  readonly accountId: string;
  readonly environment: 'TEST' | 'LIVE';
  readonly packageId: string;
  readonly amount: number;
  readonly currency: string;
  readonly sms: number;
  readonly successUrl: string;
  readonly cancelUrl: string | null;
  readonly provider: CheckoutProvider;
  readonly reference: string;
  readonly ttlMs: number;
  readonly now: Date;
  /** Started by auto top-up rather than by a shopper. */
  readonly origin?: 'auto_topup';
  readonly actor?: Actor;
}

export function start(c: Checkout, cmd: StartCheckout): CheckoutDecision {
  if (c.started) {
    return c.started.checkoutId === cmd.checkoutId && c.started.reference === cmd.reference
      ? ok([]) // the same start repeated
      : err(new DomainError('conflict', 'checkout_exists', 'This checkout already exists'));
  }
  if (!Number.isSafeInteger(cmd.amount) || cmd.amount <= 0)
    return err(invalid('invalid_amount', 'amount must be a positive integer in minor units', 'amount'));
  if (!Number.isSafeInteger(cmd.sms) || cmd.sms <= 0)
    return err(invalid('invalid_sms', 'sms must be a positive integer', 'sms'));
  if (!Number.isSafeInteger(cmd.ttlMs) || cmd.ttlMs <= 0)
    return err(invalid('invalid_ttl', 'the checkout lifetime must be positive'));
  const { ttlMs: _ttl, now, ...data } = cmd;
  return ok([
    {
      type: 'CheckoutStarted',
      data: {
        ...data,
        expiresAt: new Date(now.getTime() + cmd.ttlMs).toISOString(),
        createdAt: now.toISOString(),
      },
    },
  ]);
}

/** Refuses a payment action on a checkout that cannot take one any more. */
function refuseUnpayable(c: Checkout, now: Date): DomainError | null {
  if (!c.started) return checkoutMissing();
  const status = statusAt(c, now);
  if (status === 'expired') return expired();
  if (status === 'failed') return failed();
  return null;
}

/** Records where the provider takes the payment (LIVE), once; a reload reuses it. */
export function startPayment(c: Checkout, cmd: { redirectUrl: string; now: Date }): CheckoutDecision {
  const refusal = refuseUnpayable(c, cmd.now);
  if (refusal) return err(refusal);
  if (c.payment || c.status === 'succeeded') return err(alreadyPaid());
  if (c.paymentRedirectUrl) return ok([]);
  const s = c.started!;
  return ok([
    {
      type: 'PaymentStarted',
      data: {
        reference: s.reference,
        provider: s.provider,
        redirectUrl: cmd.redirectUrl,
        startedAt: cmd.now.toISOString(),
      },
    },
  ]);
}

/**
 * A payment the provider verified server to server (money already taken), or the TEST page's
 * Pay (`payingNow`: the money moves by this very decision, so a closed checkout refuses it).
 *
 * Exactly the checkout's amount and currency confirm it, once, whatever repeats, even after
 * the deadline (the shopper paid what was asked; an expired checkout then succeeds). Money this
 * checkout will not credit is refunded instead: paid after the checkout failed, or not exactly
 * the asked amount (which also fails a checkout still pending). Never taken and forgotten.
 */
export function confirmPayment(
  c: Checkout,
  cmd: {
    reference: string;
    amount: number;
    currency: string;
    provider: CheckoutProvider;
    now: Date;
    payingNow?: boolean;
    /** The card paid with, when the provider lets us charge it again. */
    card?: ReusableCard;
  },
): CheckoutDecision {
  if (!c.started) return err(checkoutMissing());
  const s = c.started;
  if (cmd.reference !== s.reference || cmd.provider !== s.provider) {
    return err(
      new DomainError('conflict', 'payment_mismatch', 'The payment does not belong to this checkout'),
    );
  }
  if (c.payment || c.status === 'succeeded' || c.refund) return ok([]); // decided already: never twice
  if (cmd.payingNow) {
    const refusal = refuseUnpayable(c, cmd.now);
    if (refusal) return err(refusal);
  }
  const sameAmount = Number.isSafeInteger(cmd.amount) && cmd.amount === s.amount;
  const sameCurrency =
    typeof cmd.currency === 'string' && cmd.currency.toUpperCase() === s.currency.toUpperCase();
  const at = cmd.now.toISOString();
  const refund = (reason: string): CheckoutEvent => ({
    type: 'RefundRequested',
    data: {
      reference: s.reference,
      amount: cmd.amount,
      currency: cmd.currency,
      provider: s.provider,
      reason,
      requestedAt: at,
    },
  });
  if (!sameAmount || !sameCurrency) {
    const reason = `payment mismatch: expected ${s.amount} ${s.currency}, provider reported ${cmd.amount} ${cmd.currency}`;
    return ok([
      ...(c.status === 'pending'
        ? [{ type: 'CheckoutFailed', data: { reason, failedAt: at } } satisfies CheckoutEvent]
        : []),
      refund(reason),
    ]);
  }
  if (c.status === 'failed') return ok([refund(`paid after the checkout failed (${c.failureReason})`)]);
  return ok([
    {
      type: 'PaymentConfirmed',
      data: {
        reference: s.reference,
        amount: cmd.amount,
        currency: s.currency,
        provider: s.provider,
        confirmedAt: at,
        ...(cmd.card ? { card: cmd.card } : {}),
      },
    },
  ]);
}

/** The provider accepted the requested refund: recorded once. */
export function recordRefund(c: Checkout, cmd: { refundId: string; now: Date }): CheckoutDecision {
  if (!c.started) return err(checkoutMissing());
  if (c.refund?.status !== 'requested') return ok([]);
  return ok([
    {
      type: 'PaymentRefunded',
      data: { reference: c.started.reference, refundId: cmd.refundId, refundedAt: cmd.now.toISOString() },
    },
  ]);
}

/** The provider refused the requested refund: recorded once, for an operator. */
export function recordRefundFailure(c: Checkout, cmd: { reason: string; now: Date }): CheckoutDecision {
  if (!c.started) return err(checkoutMissing());
  if (c.refund?.status !== 'requested') return ok([]);
  return ok([
    {
      type: 'RefundFailed',
      data: { reference: c.started.reference, reason: cmd.reason, failedAt: cmd.now.toISOString() },
    },
  ]);
}

/** Declined by the shopper or by the provider: only an unpaid, pending checkout can fail. */
export function fail(c: Checkout, cmd: { reason: string; now: Date }): CheckoutDecision {
  if (!c.started) return err(checkoutMissing());
  if (c.status === 'failed') return ok([]);
  if (c.payment || c.status === 'succeeded') return err(alreadyPaid());
  if (statusAt(c, cmd.now) === 'expired') return err(expired());
  return ok([{ type: 'CheckoutFailed', data: { reason: cmd.reason, failedAt: cmd.now.toISOString() } }]);
}

/** The credits are on the wallet: the checkout succeeds, once. */
export function succeed(c: Checkout, cmd: { now: Date }): CheckoutDecision {
  if (!c.started) return err(checkoutMissing());
  if (c.status === 'succeeded') return ok([]);
  if (!c.payment)
    return err(
      new DomainError('conflict', 'payment_not_confirmed', 'No confirmed payment for this checkout'),
    );
  return ok([
    { type: 'CheckoutSucceeded', data: { sms: c.started.sms, succeededAt: cmd.now.toISOString() } },
  ]);
}

/** Records the expiry of an unpaid checkout whose time is up (the sweep). */
export function expire(c: Checkout, cmd: { now: Date }): CheckoutDecision {
  if (!c.started) return err(checkoutMissing());
  if (c.status === 'expired') return ok([]);
  if (c.payment || c.status === 'succeeded') return err(alreadyPaid());
  if (c.status === 'failed') return err(failed());
  if (statusAt(c, cmd.now) !== 'expired') {
    return err(new DomainError('conflict', 'checkout_not_expired', 'This checkout has not expired yet'));
  }
  return ok([{ type: 'CheckoutExpired', data: { expiredAt: cmd.now.toISOString() } }]);
}

const FINAL_EVENTS: ReadonlySet<CheckoutEvent['type']> = new Set([
  'CheckoutSucceeded',
  'CheckoutFailed',
  'CheckoutExpired',
]);

/** The checkout a recorded decision finished: succeeded, failed or expired (see stateAfterAny). */
export const finishedBy = (
  recorded: Result<{ readonly state: Checkout; readonly events: readonly CheckoutEvent[] }, unknown>,
): Checkout | null => stateAfterAny(recorded, FINAL_EVENTS);
