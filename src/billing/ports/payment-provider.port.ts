import type { ReusableCard } from '../domain/checkout.events';

/**
 * Outbound port to whoever takes the shopper's money. TEST checkouts pay through the built-in
 * test provider; LIVE ones through Paystack. Amounts are integers in minor units.
 */
export const PAYMENT_PROVIDERS = Symbol('PAYMENT_PROVIDERS');

export interface StartPaymentInput {
  readonly checkoutId: string;
  /** Unique per payment attempt; the provider's transaction reference. */
  readonly reference: string;
  readonly amount: number;
  readonly currency: string;
  /** Where the provider sends the shopper back after paying (our hosted return route). */
  readonly callbackUrl: string;
  /** Paystack requires a customer email; the merchant's account email is used. */
  readonly email: string;
}

export interface StartedPayment {
  /** Where to send the shopper's browser to pay; null when the hosted page itself takes the payment (TEST). */
  readonly redirectUrl: string | null;
  readonly reference: string;
}

export type PaymentStatus = 'succeeded' | 'failed' | 'pending';

export interface VerifiedPayment {
  readonly reference: string;
  readonly status: PaymentStatus;
  /** What the provider says was charged: checked against the checkout before crediting. */
  readonly amount: number;
  readonly currency: string;
  /** Provider's reason when failed, for the record. */
  readonly reason: string | null;
  /** When paid with a card the provider lets us charge again (auto top-up saves it). */
  readonly card?: ReusableCard;
}

/** A charge of a saved card, with no shopper present (auto top-up). */
export interface ChargeCardInput {
  /** Unique per charge; the provider refuses a second transaction with it. */
  readonly reference: string;
  readonly card: ReusableCard;
  readonly amount: number;
  readonly currency: string;
  readonly checkoutId: string;
}

export interface RefundInput {
  readonly reference: string;
  /** All of what the provider reported taking, in minor units. */
  readonly amount: number;
  readonly currency: string;
  /** Why, for the provider's records (never shown as ours to the shopper). */
  readonly reason: string;
}

export interface AcceptedRefund {
  /** The provider's id for the refund. */
  readonly refundId: string;
}

/**
 * The provider answered, and refused the refund (already reversed, not refundable…): retrying
 * changes nothing, an operator must act. Any other error means "unknown, try again later".
 */
export class RefundRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefundRefusedError';
  }
}

export type WebhookResult =
  | { readonly accepted: true; readonly event: string; readonly reference: string | null }
  | { readonly accepted: false; readonly reason: 'bad_signature' | 'malformed' };

export interface PaymentProvider {
  readonly name: string;
  startPayment(input: StartPaymentInput): Promise<StartedPayment>;
  /** Asks the provider, server to server, what happened to the payment. Never trusts the browser. */
  verifyPayment(reference: string): Promise<VerifiedPayment>;
  /**
   * Charges a saved card. The answer says what the provider decided (`pending`: not yet); an
   * error means UNKNOWN (a timeout: the charge may still go through), and the caller verifies
   * the reference later, never charging it again.
   */
  chargeCard(input: ChargeCardInput): Promise<VerifiedPayment>;
  /** Gives a taken payment back, in full. Throws RefundRefusedError when the provider says no. */
  refundPayment(input: RefundInput): Promise<AcceptedRefund>;
  /**
   * Checks a webhook's signature over the raw body and says which payment it concerns. The
   * caller still verifies the payment before crediting anything.
   */
  parseWebhook(
    rawBody: Buffer,
    headers: Readonly<Record<string, string | string[] | undefined>>,
  ): WebhookResult;
}

/** Which provider serves an environment. */
export interface PaymentProviders {
  forEnvironment(environment: 'TEST' | 'LIVE'): PaymentProvider | null;
}
