import type {
  AcceptedRefund,
  ChargeCardInput,
  PaymentProvider,
  RefundInput,
  PaymentStatus,
  StartedPayment,
  StartPaymentInput,
  VerifiedPayment,
  WebhookResult,
} from '../../ports/payment-provider.port';

/** What the hosted TEST page decided for a reference, as recorded durably (the event log). */
export interface TestPaymentOutcome {
  readonly status: PaymentStatus;
  readonly amount: number;
  readonly currency: string;
  readonly reason?: string | null;
}

/** Reads the recorded outcome of a TEST payment; null when the shopper has not decided yet. */
export type TestPaymentLookup = (reference: string) => Promise<TestPaymentOutcome | null>;

export interface TestPaymentProviderOptions {
  readonly lookup: TestPaymentLookup;
}

/**
 * The built-in provider for TEST checkouts. Stateless: the hosted page's Pay/Decline action is
 * itself the payment decision, recorded by the billing module; this adapter only reads it back
 * through `lookup`, so answers survive restarts. No redirect (the hosted page takes the payment)
 * and no webhooks.
 */
export class TestPaymentProvider implements PaymentProvider {
  readonly name = 'test';
  readonly #lookup: TestPaymentLookup;

  constructor(options: TestPaymentProviderOptions) {
    if (typeof options?.lookup !== 'function') throw new Error('TestPaymentProvider: lookup is required');
    this.#lookup = options.lookup;
  }

  async startPayment(input: StartPaymentInput): Promise<StartedPayment> {
    return { redirectUrl: null, reference: input.reference };
  }

  /** Throws whatever `lookup` throws: the caller treats that as "unknown, try again later". */
  async verifyPayment(reference: string): Promise<VerifiedPayment> {
    const outcome = await this.#lookup(reference);
    if (!outcome) return { reference, status: 'pending', amount: 0, currency: '', reason: null };
    return {
      reference,
      status: outcome.status,
      amount: outcome.amount,
      currency: outcome.currency,
      reason: outcome.status === 'failed' ? (outcome.reason ?? 'declined on the test payment page') : null,
    };
  }

  /** The test card always pays: no money moves under TEST. */
  async chargeCard(input: ChargeCardInput): Promise<VerifiedPayment> {
    return {
      reference: input.reference,
      status: 'succeeded',
      amount: input.amount,
      currency: input.currency,
      reason: null,
    };
  }

  /** No money moved: the refund is as simulated as the payment. */
  async refundPayment(input: RefundInput): Promise<AcceptedRefund> {
    return { refundId: `test_refund_${input.reference}` };
  }

  parseWebhook(): WebhookResult {
    return { accepted: false, reason: 'malformed' };
  }
}
