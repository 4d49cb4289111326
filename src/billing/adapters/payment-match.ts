import type { VerifiedPayment } from '../ports/payment-provider.port';

export interface ExpectedPayment {
  /** Integer minor units (pesewas for GHS). */
  readonly amount: number;
  readonly currency: string;
}

/**
 * Whether what the provider says was charged is exactly what the checkout asked for: same integer
 * amount in minor units and same currency (ISO code, compared case-insensitively). Over- and
 * under-payments both count as a mismatch. It does not look at `status`: credit only when
 * `verified.status === 'succeeded'` AND this returns true.
 */
export function paymentMatches(
  verified: Pick<VerifiedPayment, 'amount' | 'currency'>,
  expected: ExpectedPayment,
): boolean {
  return (
    Number.isSafeInteger(verified.amount) &&
    Number.isSafeInteger(expected.amount) &&
    verified.amount === expected.amount &&
    typeof verified.currency === 'string' &&
    typeof expected.currency === 'string' &&
    verified.currency.length > 0 &&
    verified.currency.toUpperCase() === expected.currency.toUpperCase()
  );
}
