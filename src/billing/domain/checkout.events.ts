import type { Actor } from '../../shared/actor';
import type { DomainEvent } from '../../shared/decider';

export type CheckoutEnvironment = 'TEST' | 'LIVE';
/** Which payment provider takes the money: the built-in test provider or Paystack. */
export type CheckoutProvider = 'test' | 'paystack';

export type CheckoutStarted = DomainEvent<
  'CheckoutStarted',
  {
    checkoutId: string;
    walletId: string;
    accountId: string;
    environment: CheckoutEnvironment;
    packageId: string;
    /** Integer minor units (pesewas for GHS). */
    amount: number;
    currency: string;
    /** Credits the package adds once paid. */
    sms: number;
    successUrl: string;
    cancelUrl: string | null;
    provider: CheckoutProvider;
    /** The provider's transaction reference: one per checkout, so the provider refuses a second payment. */
    reference: string;
    expiresAt: string;
    createdAt: string;
    /** Started by auto top-up (the saved card is charged, no shopper); absent for a shopper's checkout. */
    origin?: 'auto_topup';
    /** Who started it (absent on auto top-ups and on checkouts from before actors were recorded). */
    actor?: Actor;
  }
>;

/** The shopper was handed to the provider (LIVE): reloads reuse the same payment page. */
export type PaymentStarted = DomainEvent<
  'PaymentStarted',
  { reference: string; provider: CheckoutProvider; redirectUrl: string; startedAt: string }
>;

/**
 * A card the provider lets us charge again without the shopper (Paystack's reusable
 * `authorization`; the TEST provider's test card). The code is a credential only together with
 * our provider secret key; it is never shown by the API or the console.
 */
export interface ReusableCard {
  readonly authorizationCode: string;
  readonly brand: string;
  readonly last4: string;
  readonly expMonth: string;
  readonly expYear: string;
  /** The provider's e-mail for the customer: Paystack charges the authorization with the same one. */
  readonly email: string;
}

/** The provider confirmed, server to server, that exactly the asked amount was paid. Credits follow. */
export type PaymentConfirmed = DomainEvent<
  'PaymentConfirmed',
  {
    reference: string;
    amount: number;
    currency: string;
    provider: CheckoutProvider;
    confirmedAt: string;
    /** The card paid with, when the provider says it may be charged again (auto top-up saves it). */
    card?: ReusableCard;
  }
>;

/** The credits are on the wallet: only now is the checkout `succeeded`. */
export type CheckoutSucceeded = DomainEvent<'CheckoutSucceeded', { sms: number; succeededAt: string }>;
export type CheckoutFailed = DomainEvent<'CheckoutFailed', { reason: string; failedAt: string }>;
export type CheckoutExpired = DomainEvent<'CheckoutExpired', { expiredAt: string }>;

/**
 * The provider took money this checkout will not credit (paid after the checkout failed, or not
 * exactly the asked amount): it is refunded through the provider, by a process manager.
 */
export type RefundRequested = DomainEvent<
  'RefundRequested',
  {
    reference: string;
    /** What the provider reports it took: all of it goes back. */
    amount: number;
    currency: string;
    provider: CheckoutProvider;
    reason: string;
    requestedAt: string;
  }
>;
/** The provider accepted the refund (it pays the shopper back on its own schedule). */
export type PaymentRefunded = DomainEvent<
  'PaymentRefunded',
  { reference: string; refundId: string; refundedAt: string }
>;
/** The provider refused the refund: an operator must pay the shopper back by hand. */
export type RefundFailed = DomainEvent<
  'RefundFailed',
  { reference: string; reason: string; failedAt: string }
>;

export type CheckoutEvent =
  | CheckoutStarted
  | PaymentStarted
  | PaymentConfirmed
  | CheckoutSucceeded
  | CheckoutFailed
  | CheckoutExpired
  | RefundRequested
  | PaymentRefunded
  | RefundFailed;

export const CHECKOUT_EVENT_TYPES: readonly CheckoutEvent['type'][] = [
  'CheckoutStarted',
  'PaymentStarted',
  'PaymentConfirmed',
  'CheckoutSucceeded',
  'CheckoutFailed',
  'CheckoutExpired',
  'RefundRequested',
  'PaymentRefunded',
  'RefundFailed',
];

export const CHECKOUT_STREAM_PREFIX = 'checkout-';
export const checkoutStream = (checkoutId: string) => `${CHECKOUT_STREAM_PREFIX}${checkoutId}`;
