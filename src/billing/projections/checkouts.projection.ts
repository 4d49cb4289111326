import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import type { CheckoutStatus } from '../domain/checkout.decider';
import { CHECKOUT_EVENT_TYPES, CHECKOUT_STREAM_PREFIX, CheckoutEvent } from '../domain/checkout.events';

export const CHECKOUTS = 'checkouts';
/** Unpaid pending checkouts, listed by expiry time: what the expiry sweep looks at. */
export const OPEN_CHECKOUTS = 'checkouts-open';
export const OPEN_PARTITION = 'open';
export const CHECKOUTS_PROJECTION = 'checkouts';

/** The checkout as the API shows it, plus what access checks and the sweep need. */
export interface CheckoutView {
  readonly id: string;
  readonly object: 'checkout';
  /** As recorded; time-based expiry is applied when read. */
  readonly status: CheckoutStatus;
  readonly checkout_url: string;
  readonly package_id: string;
  readonly amount: number;
  readonly currency: string;
  readonly sms: number;
  readonly success_url: string;
  readonly cancel_url: string | null;
  readonly expires_at: string;
  readonly created_at: string;
  // Internal fields, never shown:
  readonly walletId: string;
  readonly accountId: string;
  readonly environment: 'TEST' | 'LIVE';
  readonly paymentConfirmed: boolean;
  readonly failureReason: string | null;
  /** Revision of the last event applied (idempotent re-application). */
  readonly revision: string;
  /** Log position of CheckoutSucceeded: readers wait for the wallet's read model to reach it. */
  readonly succeededPosition: string | null;
}

export interface OpenCheckoutView {
  readonly id: string;
  readonly expiresAt: string;
}

export function checkoutsProjection(publicUrl: string): Projection {
  return {
    name: CHECKOUTS_PROJECTION,
    collections: [CHECKOUTS, OPEN_CHECKOUTS],
    kind: 'read-model',
    filter: { streamPrefixes: [CHECKOUT_STREAM_PREFIX], eventTypes: CHECKOUT_EVENT_TYPES },
    async apply(recorded: RecordedEvent, view: ProjectionView) {
      const event = recorded as unknown as RecordedEvent & CheckoutEvent;
      const id = recorded.streamId.slice(CHECKOUT_STREAM_PREFIX.length);
      const current = await view.get<CheckoutView>(CHECKOUTS, id);
      if (current && BigInt(current.revision) >= recorded.revision) return; // already applied
      const revision = recorded.revision.toString();
      if (event.type === 'CheckoutStarted') {
        const d = event.data;
        const doc: CheckoutView = {
          id,
          object: 'checkout',
          status: 'pending',
          checkout_url: `${publicUrl}/checkout/${id}`,
          package_id: d.packageId,
          amount: d.amount,
          currency: d.currency,
          sms: 0,
          success_url: d.successUrl,
          cancel_url: d.cancelUrl,
          expires_at: d.expiresAt,
          created_at: d.createdAt,
          walletId: d.walletId,
          accountId: d.accountId,
          environment: d.environment,
          paymentConfirmed: false,
          failureReason: null,
          revision,
          succeededPosition: null,
        };
        view.put(CHECKOUTS, id, doc);
        view.put(OPEN_CHECKOUTS, id, { id, expiresAt: d.expiresAt } satisfies OpenCheckoutView, {
          partition: OPEN_PARTITION,
          sort: `${d.expiresAt}|${id}`,
        });
        return;
      }
      if (!current) return; // a stream without its start: nothing to show
      switch (event.type) {
        case 'PaymentStarted':
        case 'RefundRequested':
        case 'PaymentRefunded':
        case 'RefundFailed':
          view.put(CHECKOUTS, id, { ...current, revision });
          return;
        case 'PaymentConfirmed':
          view.put(CHECKOUTS, id, { ...current, paymentConfirmed: true, revision });
          view.delete(OPEN_CHECKOUTS, id);
          return;
        case 'CheckoutSucceeded':
          view.put(CHECKOUTS, id, {
            ...current,
            status: 'succeeded',
            sms: event.data.sms,
            revision,
            succeededPosition: recorded.position.toString(),
          });
          view.delete(OPEN_CHECKOUTS, id);
          return;
        case 'CheckoutFailed':
          view.put(CHECKOUTS, id, {
            ...current,
            status: 'failed',
            failureReason: event.data.reason,
            revision,
          });
          view.delete(OPEN_CHECKOUTS, id);
          return;
        case 'CheckoutExpired':
          view.put(CHECKOUTS, id, { ...current, status: 'expired', revision });
          view.delete(OPEN_CHECKOUTS, id);
          return;
      }
    },
  };
}

/** The status a reader sees at `now` (lazy expiry of an unpaid checkout). */
export function viewStatusAt(doc: CheckoutView, now: Date): CheckoutStatus {
  if (doc.status === 'pending' && !doc.paymentConfirmed && now.getTime() >= Date.parse(doc.expires_at))
    return 'expired';
  return doc.status;
}

export type CheckoutObject = ReturnType<typeof toCheckoutObject>;

/** The public checkout object of API.md. */
export function toCheckoutObject(doc: CheckoutView, now: Date) {
  const status = viewStatusAt(doc, now);
  return {
    id: doc.id,
    object: 'checkout' as const,
    status,
    checkout_url: doc.checkout_url,
    package_id: doc.package_id,
    amount: doc.amount,
    currency: doc.currency,
    sms: status === 'succeeded' ? doc.sms : 0,
    success_url: doc.success_url,
    cancel_url: doc.cancel_url,
    expires_at: doc.expires_at,
    created_at: doc.created_at,
  };
}
