import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import {
  WEBHOOK_ENDPOINT_EVENT_TYPES,
  WEBHOOK_ENDPOINT_STREAM_PREFIX,
  WebhookEndpointEvent,
  WebhookEnvironment,
  WebhookEventType,
} from '../domain/webhook.events';

/** Endpoints by id, listed per wallet (partition = walletId, oldest first). Deleted ones are gone. */
export const WEBHOOK_ENDPOINTS = 'webhook-endpoints';
export const WEBHOOK_ENDPOINTS_PROJECTION = 'webhook-endpoints';

export interface WebhookEndpointDoc {
  readonly id: string;
  readonly walletId: string;
  readonly accountId: string;
  readonly environment: WebhookEnvironment;
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  readonly status: 'enabled' | 'disabled';
  readonly createdAt: string;
  /** Internal: what deliveries are signed with. Never listed. */
  readonly secret: string;
  readonly revision: string;
}

export interface ApiWebhookEndpoint {
  readonly id: string;
  readonly object: 'webhook_endpoint';
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  readonly status: 'enabled' | 'disabled';
  readonly created_at: string;
}

export const toApiEndpoint = (doc: WebhookEndpointDoc): ApiWebhookEndpoint => ({
  id: doc.id,
  object: 'webhook_endpoint',
  url: doc.url,
  events: doc.events,
  status: doc.status,
  created_at: doc.createdAt,
});

export const webhookEndpointsProjection: Projection = {
  name: WEBHOOK_ENDPOINTS_PROJECTION,
  kind: 'read-model',
  collections: [WEBHOOK_ENDPOINTS],
  filter: { streamPrefixes: [WEBHOOK_ENDPOINT_STREAM_PREFIX], eventTypes: WEBHOOK_ENDPOINT_EVENT_TYPES },
  async apply(recorded: RecordedEvent, view: ProjectionView) {
    const event = recorded as unknown as RecordedEvent & WebhookEndpointEvent;
    const id = recorded.streamId.slice(WEBHOOK_ENDPOINT_STREAM_PREFIX.length);
    const current = await view.get<WebhookEndpointDoc>(WEBHOOK_ENDPOINTS, id);
    if (current && BigInt(current.revision) >= recorded.revision) return;
    const revision = recorded.revision.toString();
    switch (event.type) {
      case 'WebhookEndpointCreated': {
        if (current) return;
        const d = event.data;
        const doc: WebhookEndpointDoc = {
          id,
          walletId: d.walletId,
          accountId: d.accountId,
          environment: d.environment,
          url: d.url,
          events: d.events,
          status: 'enabled',
          createdAt: d.createdAt,
          secret: d.secret,
          revision,
        };
        view.put(WEBHOOK_ENDPOINTS, id, doc, { partition: d.walletId, sort: `${d.createdAt}|${id}` });
        return;
      }
      case 'WebhookEndpointDisabled':
        if (!current) return;
        view.put(
          WEBHOOK_ENDPOINTS,
          id,
          { ...current, status: 'disabled', revision },
          {
            partition: current.walletId,
            sort: `${current.createdAt}|${id}`,
          },
        );
        return;
      case 'WebhookEndpointDeleted':
        view.delete(WEBHOOK_ENDPOINTS, id);
        return;
    }
  },
};
