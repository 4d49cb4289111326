import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import { type AutoTopUpTriggered, WALLET_CARE_STREAM_PREFIX } from '../../wallet/domain/wallet-care.events';
import { CHECKOUT_STREAM_PREFIX } from '../domain/checkout.events';
import type { AutoTopUps } from './auto-top-ups.service';

const OUTCOMES = {
  CheckoutSucceeded: 'succeeded',
  CheckoutFailed: 'failed',
  CheckoutExpired: 'expired',
} as const;

/**
 * Drives auto top-up from the log: a trigger on a wallet's care stream starts and charges its
 * checkout; a checkout that was a top-up reports how it ended back to the wallet's care (a failure
 * mails the account; 3 in a row turn auto top-up off). Each step is idempotent, so a batch run
 * again changes nothing twice; a technical failure runs the batch again from its checkpoint.
 */
export function autoTopUpProcess(topUps: AutoTopUps): Projection {
  return {
    name: 'auto-top-ups',
    kind: 'process-manager',
    collections: [],
    filter: {
      streamPrefixes: [WALLET_CARE_STREAM_PREFIX, CHECKOUT_STREAM_PREFIX],
      eventTypes: ['AutoTopUpTriggered', ...Object.keys(OUTCOMES)],
    },
    apply(recorded: RecordedEvent, view: ProjectionView) {
      if (recorded.type === 'AutoTopUpTriggered') {
        const trigger = (recorded as unknown as AutoTopUpTriggered).data;
        view.afterBatch(() => topUps.run(trigger));
        return;
      }
      const outcome = OUTCOMES[recorded.type as keyof typeof OUTCOMES];
      const checkoutId = recorded.streamId.slice(CHECKOUT_STREAM_PREFIX.length);
      view.afterBatch(() => topUps.recordOutcome(checkoutId, outcome));
    },
  };
}

/** Saves the card of every confirmed payment that the provider lets us charge again. */
export function savedCardsProcess(topUps: AutoTopUps): Projection {
  return {
    name: 'saved-cards',
    kind: 'process-manager',
    collections: [],
    filter: { streamPrefixes: [CHECKOUT_STREAM_PREFIX], eventTypes: ['PaymentConfirmed'] },
    apply(recorded: RecordedEvent) {
      if (!(recorded.data as { card?: unknown }).card) return;
      return topUps.saveCardOf(recorded.streamId.slice(CHECKOUT_STREAM_PREFIX.length));
    },
  };
}
