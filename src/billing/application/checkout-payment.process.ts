import { Logger } from '@nestjs/common';
import { DomainError } from '../../shared/domain-error';
import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection } from '../../shared/projections/projection';
import { CHECKOUT_STREAM_PREFIX } from '../domain/checkout.events';
import type { CheckoutPayments } from './checkout-payments.service';

/**
 * Drives every PaymentConfirmed to CheckoutSucceeded from the event log: credits the wallet
 * (idempotent per checkout id), then records the success (idempotent in the decider). The hosted
 * pages run the same steps inline; this finishes whatever a crash or a failure left half done.
 * A technical failure stops the batch before its checkpoint, so it is tried again; a business
 * refusal (which no retry changes) is logged for an operator instead of blocking every later payment.
 */
export function checkoutPaymentProcess(payments: CheckoutPayments): Projection {
  const logger = new Logger('checkout-payment-process');
  return {
    name: 'checkout-payments',
    collections: [],
    kind: 'process-manager',
    filter: { streamPrefixes: [CHECKOUT_STREAM_PREFIX], eventTypes: ['PaymentConfirmed'] },
    async apply(recorded: RecordedEvent) {
      const checkoutId = recorded.streamId.slice(CHECKOUT_STREAM_PREFIX.length);
      try {
        await payments.complete(checkoutId);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        logger.error(
          `checkout ${checkoutId}: payment confirmed but not completed (${error.code}: ${error.message}); needs an operator`,
        );
      }
    },
  };
}

/**
 * Drives every RefundRequested to its outcome from the event log: the provider refunds the
 * payment, and PaymentRefunded (or, when the provider refuses, RefundFailed for an operator) is
 * recorded. A technical failure stops the batch before its checkpoint, so it is tried again.
 */
export function checkoutRefundProcess(payments: CheckoutPayments): Projection {
  return {
    name: 'checkout-refunds',
    collections: [],
    kind: 'process-manager',
    filter: { streamPrefixes: [CHECKOUT_STREAM_PREFIX], eventTypes: ['RefundRequested'] },
    async apply(recorded: RecordedEvent) {
      await payments.refund(recorded.streamId.slice(CHECKOUT_STREAM_PREFIX.length));
    },
  };
}
