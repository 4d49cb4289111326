import type { AppConfig } from '../../config/app-config';
import type { PaymentProvider, PaymentProviders } from '../ports/payment-provider.port';
import { PaystackPaymentProvider } from './paystack/paystack-payment-provider.adapter';
import { TestPaymentLookup, TestPaymentProvider } from './test-provider/test-payment-provider.adapter';

/**
 * TEST checkouts pay through the built-in test provider (its answers read back from the checkout
 * stream); LIVE ones through Paystack when a secret key is configured, else LIVE has no provider
 * and starting a LIVE checkout is refused with `payments_unavailable`.
 */
export function createPaymentProviders(config: AppConfig, testLookup: TestPaymentLookup): PaymentProviders {
  const test = new TestPaymentProvider({ lookup: testLookup });
  const live: PaymentProvider | null = config.paystack.secretKey
    ? new PaystackPaymentProvider({
        secretKey: config.paystack.secretKey,
        baseUrl: config.paystack.baseUrl,
        timeoutMs: config.paystack.timeoutMs,
      })
    : null;
  return { forEnvironment: (environment) => (environment === 'TEST' ? test : live) };
}
