import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import {
  WEBHOOK_DELIVERIES_STREAM_PREFIX,
  WEBHOOK_DELIVERY_EVENT_TYPES,
  WEBHOOK_EVENTS_STREAM_PREFIX,
  WebhookDeliveryEvent,
  WebhookEventObject,
  WebhookEventRecorded,
} from '../domain/webhook.events';

/**
 * The durable outbox: one document per (endpoint, event). Pending ones are listed in the
 * endpoint's partition in log order (which is also each message's state order); delivered and
 * abandoned ones move to `done:<endpointId>`.
 */
export const WEBHOOK_DELIVERIES = 'webhook-deliveries';
/** Endpoints with pending deliveries (partition 'active'): the worker's work list. */
export const WEBHOOK_QUEUES = 'webhook-outbox-queues';
export const ACTIVE_PARTITION = 'active';
/** Event id → where it is in its wallet's stream: the cursor of GET /v1/events. */
export const WEBHOOK_EVENT_INDEX = 'webhook-event-index';
/** Per endpoint: since when every attempt failed (null after a success). */
export const WEBHOOK_ENDPOINT_HEALTH = 'webhook-endpoint-health';
export const WEBHOOK_OUTBOX_PROJECTION = 'webhook-outbox';

export const deliveryId = (endpointId: string, evtId: string) => `${endpointId}:${evtId}`;
const sortOf = (position: bigint | string) => BigInt(position).toString().padStart(20, '0');

export interface WebhookDeliveryDoc {
  readonly id: string;
  readonly endpointId: string;
  readonly walletId: string;
  readonly evtId: string;
  readonly subject: string;
  readonly sequence: number;
  readonly event: WebhookEventObject;
  readonly status: 'pending' | 'delivered' | 'abandoned';
  /** Attempts with a recorded outcome (an attempt cut short by a shutdown is not counted). */
  readonly attempts: number;
  readonly nextAttemptAt: string;
  readonly firstAttemptAt: string | null;
  readonly lastAttemptAt: string | null;
  readonly lastError: string | null;
  readonly position: string;
}

export interface WebhookQueueDoc {
  readonly endpointId: string;
  /** Whose endpoint: the worker shares its slots fairly between wallets (absent on older docs). */
  readonly walletId?: string;
  readonly pending: number;
}

export interface WebhookEventIndexDoc {
  readonly walletId: string;
  readonly revision: string;
}

export interface WebhookEndpointHealthDoc {
  readonly endpointId: string;
  readonly failingSince: string | null;
}

export const webhookOutboxProjection: Projection = {
  name: WEBHOOK_OUTBOX_PROJECTION,
  kind: 'read-model',
  collections: [WEBHOOK_DELIVERIES, WEBHOOK_QUEUES, WEBHOOK_EVENT_INDEX, WEBHOOK_ENDPOINT_HEALTH],
  filter: {
    streamPrefixes: [WEBHOOK_EVENTS_STREAM_PREFIX, WEBHOOK_DELIVERIES_STREAM_PREFIX],
    eventTypes: ['WebhookEventRecorded', ...WEBHOOK_DELIVERY_EVENT_TYPES],
  },
  async apply(recorded: RecordedEvent, view: ProjectionView) {
    if (recorded.type === 'WebhookEventRecorded') {
      const data = (recorded as unknown as WebhookEventRecorded).data;
      const walletId = recorded.streamId.slice(WEBHOOK_EVENTS_STREAM_PREFIX.length);
      if (await view.get(WEBHOOK_EVENT_INDEX, data.event.id)) return; // applied already
      view.put(WEBHOOK_EVENT_INDEX, data.event.id, {
        walletId,
        revision: recorded.revision.toString(),
      } satisfies WebhookEventIndexDoc);
      for (const endpointId of data.endpoints) {
        const id = deliveryId(endpointId, data.event.id);
        const doc: WebhookDeliveryDoc = {
          id,
          endpointId,
          walletId,
          evtId: data.event.id,
          subject: data.subject,
          sequence: data.event.sequence,
          event: data.event,
          status: 'pending',
          attempts: 0,
          nextAttemptAt: recorded.recordedAt.toISOString(),
          firstAttemptAt: null,
          lastAttemptAt: null,
          lastError: null,
          position: recorded.position.toString(),
        };
        view.put(WEBHOOK_DELIVERIES, id, doc, { partition: endpointId, sort: sortOf(recorded.position) });
        await bumpQueue(view, endpointId, walletId, +1);
      }
      return;
    }
    const event = recorded as unknown as RecordedEvent & WebhookDeliveryEvent;
    const endpointId = recorded.streamId.slice(WEBHOOK_DELIVERIES_STREAM_PREFIX.length);
    const id = deliveryId(endpointId, event.data.evtId);
    const current = await view.get<WebhookDeliveryDoc>(WEBHOOK_DELIVERIES, id);
    if (!current || current.status !== 'pending') return;
    const pendingIndex = { partition: endpointId, sort: sortOf(current.position) };
    const doneIndex = { partition: `done:${endpointId}`, sort: sortOf(current.position) };
    switch (event.type) {
      case 'WebhookDeliverySucceeded':
        view.put(
          WEBHOOK_DELIVERIES,
          id,
          {
            ...current,
            status: 'delivered',
            attempts: event.data.attempt,
            firstAttemptAt: current.firstAttemptAt ?? event.data.at,
            lastAttemptAt: event.data.at,
            lastError: null,
          } satisfies WebhookDeliveryDoc,
          doneIndex,
        );
        view.put(WEBHOOK_ENDPOINT_HEALTH, endpointId, {
          endpointId,
          failingSince: null,
        } satisfies WebhookEndpointHealthDoc);
        await bumpQueue(view, endpointId, current.walletId, -1);
        return;
      case 'WebhookDeliveryFailed': {
        if (event.data.attempt <= current.attempts) return;
        view.put(
          WEBHOOK_DELIVERIES,
          id,
          {
            ...current,
            attempts: event.data.attempt,
            nextAttemptAt: event.data.nextAttemptAt,
            firstAttemptAt: current.firstAttemptAt ?? event.data.at,
            lastAttemptAt: event.data.at,
            lastError: event.data.error,
          } satisfies WebhookDeliveryDoc,
          pendingIndex,
        );
        const health = await view.get<WebhookEndpointHealthDoc>(WEBHOOK_ENDPOINT_HEALTH, endpointId);
        if (!health?.failingSince) {
          view.put(WEBHOOK_ENDPOINT_HEALTH, endpointId, {
            endpointId,
            failingSince: event.data.at,
          } satisfies WebhookEndpointHealthDoc);
        }
        return;
      }
      case 'WebhookDeliveryAbandoned':
        view.put(
          WEBHOOK_DELIVERIES,
          id,
          { ...current, status: 'abandoned', lastError: event.data.reason } satisfies WebhookDeliveryDoc,
          doneIndex,
        );
        await bumpQueue(view, endpointId, current.walletId, -1);
        return;
    }
  },
};

async function bumpQueue(
  view: ProjectionView,
  endpointId: string,
  walletId: string,
  by: number,
): Promise<void> {
  const queue = await view.get<WebhookQueueDoc>(WEBHOOK_QUEUES, endpointId);
  const pending = (queue?.pending ?? 0) + by;
  if (pending <= 0) view.delete(WEBHOOK_QUEUES, endpointId);
  else
    view.put(WEBHOOK_QUEUES, endpointId, { endpointId, walletId, pending } satisfies WebhookQueueDoc, {
      partition: ACTIVE_PARTITION,
      sort: endpointId,
    });
}
