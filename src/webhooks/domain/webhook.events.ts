import type { Actor } from '../../shared/actor';
import type { DomainEvent } from '../../shared/decider';

/** The event types a webhook endpoint can subscribe to (API.md, Webhooks). */
export const WEBHOOK_EVENT_TYPES = [
  'message.scheduled',
  'message.canceled',
  'message.sent',
  'message.delivered',
  'message.failed',
  'message.expired',
  'message.received',
  'checkout.succeeded',
  'wallet.balance_low',
  'verification.approved',
  'verification.failed',
  'verification.expired',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const isWebhookEventType = (value: unknown): value is WebhookEventType =>
  typeof value === 'string' && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);

export type WebhookEnvironment = 'TEST' | 'LIVE';

// ---- Endpoint aggregate: stream webhook-endpoint-<id> -------------------------------------

export const WEBHOOK_ENDPOINT_STREAM_PREFIX = 'webhook-endpoint-';
export const webhookEndpointStream = (endpointId: string) => `${WEBHOOK_ENDPOINT_STREAM_PREFIX}${endpointId}`;

/** The signing secret is kept (a shared secret, as Stripe's): deliveries are signed with it. */
export type WebhookEndpointCreated = DomainEvent<
  'WebhookEndpointCreated',
  {
    endpointId: string;
    walletId: string;
    accountId: string;
    environment: WebhookEnvironment;
    url: string;
    events: WebhookEventType[];
    secret: string;
    /** Who created it (absent on endpoints from before actors were recorded). */
    actor?: Actor;
    createdAt: string;
  }
>;
export type WebhookEndpointDeleted = DomainEvent<
  'WebhookEndpointDeleted',
  { deletedAt: string; actor?: Actor }
>;
/** Failing continuously for the retry window: nothing more is delivered to it. */
export type WebhookEndpointDisabled = DomainEvent<
  'WebhookEndpointDisabled',
  { reason: string; disabledAt: string }
>;

export type WebhookEndpointEvent = WebhookEndpointCreated | WebhookEndpointDeleted | WebhookEndpointDisabled;
export const WEBHOOK_ENDPOINT_EVENT_TYPES: readonly WebhookEndpointEvent['type'][] = [
  'WebhookEndpointCreated',
  'WebhookEndpointDeleted',
  'WebhookEndpointDisabled',
];

// ---- A wallet's endpoint slots: stream webhook-endpoint-slots-<walletId> ------------------

/**
 * The one aggregate that enforces a wallet's endpoint limit: a slot is taken (at an expected
 * revision) before the endpoint is created, and freed when it is deleted or disabled, so
 * parallel creates cannot exceed the limit.
 */
export const WEBHOOK_ENDPOINT_SLOTS_STREAM_PREFIX = 'webhook-endpoint-slots-';
export const webhookEndpointSlotsStream = (walletId: string) =>
  `${WEBHOOK_ENDPOINT_SLOTS_STREAM_PREFIX}${walletId}`;

export type WebhookEndpointSlotTaken = DomainEvent<
  'WebhookEndpointSlotTaken',
  { endpointId: string; takenAt: string }
>;
export type WebhookEndpointSlotFreed = DomainEvent<
  'WebhookEndpointSlotFreed',
  { endpointId: string; reason: string; freedAt: string }
>;
export type WebhookEndpointSlotEvent = WebhookEndpointSlotTaken | WebhookEndpointSlotFreed;

// ---- The wallet's webhook events: stream webhook-events-<walletId> -----------------------

export const WEBHOOK_EVENTS_STREAM_PREFIX = 'webhook-events-';
export const webhookEventsStream = (walletId: string) => `${WEBHOOK_EVENTS_STREAM_PREFIX}${walletId}`;

/** The public event object, exactly as delivered and as GET /v1/events lists it. */
export interface WebhookEventObject {
  readonly id: string;
  readonly object: 'event';
  readonly type: WebhookEventType;
  readonly created_at: string;
  /**
   * Counts the states of the one message (QUEUED = 1), checkout or verification (pending = 1); an
   * inbound message and a low-balance alert have one (1).
   */
  readonly sequence: number;
  readonly data: Record<string, unknown>;
}

/**
 * One webhook event, recorded once per source event. `source` makes recording idempotent
 * (the process manager skips a source position at or below the stream's last one);
 * `endpoints` is the fan-out decided at that point of the log.
 */
export type WebhookEventRecorded = DomainEvent<
  'WebhookEventRecorded',
  {
    event: WebhookEventObject;
    /** The message or checkout id: deliveries of one subject to one endpoint go in order. */
    subject: string;
    source: { streamId: string; revision: string; position: string };
    endpoints: string[];
  }
>;

// ---- Delivery outcomes: stream webhook-deliveries-<endpointId> ----------------------------

export const WEBHOOK_DELIVERIES_STREAM_PREFIX = 'webhook-deliveries-';
export const webhookDeliveriesStream = (endpointId: string) =>
  `${WEBHOOK_DELIVERIES_STREAM_PREFIX}${endpointId}`;

export type WebhookDeliverySucceeded = DomainEvent<
  'WebhookDeliverySucceeded',
  { evtId: string; attempt: number; statusCode: number; at: string }
>;
export type WebhookDeliveryFailed = DomainEvent<
  'WebhookDeliveryFailed',
  {
    evtId: string;
    attempt: number;
    statusCode: number | null;
    error: string;
    at: string;
    nextAttemptAt: string;
  }
>;
/** Given up: past the retry window, or the endpoint is deleted or disabled. */
export type WebhookDeliveryAbandoned = DomainEvent<
  'WebhookDeliveryAbandoned',
  { evtId: string; reason: string; at: string }
>;

export type WebhookDeliveryEvent =
  WebhookDeliverySucceeded | WebhookDeliveryFailed | WebhookDeliveryAbandoned;
export const WEBHOOK_DELIVERY_EVENT_TYPES: readonly WebhookDeliveryEvent['type'][] = [
  'WebhookDeliverySucceeded',
  'WebhookDeliveryFailed',
  'WebhookDeliveryAbandoned',
];

// ---- Who makes a delivery's attempt: stream webhook-delivery-claim-<endpointId>:<evtId> ----

/**
 * One process claims each attempt of a delivery (at the stream's revision), so processes sharing
 * one store never both deliver it; a claim whose lease ran out without an outcome is taken over.
 */
export const WEBHOOK_DELIVERY_CLAIM_STREAM_PREFIX = 'webhook-delivery-claim-';
export const webhookDeliveryClaimStream = (deliveryId: string) =>
  `${WEBHOOK_DELIVERY_CLAIM_STREAM_PREFIX}${deliveryId}`;

export type WebhookAttemptClaimed = DomainEvent<
  'WebhookAttemptClaimed',
  { attempt: number; instance: string; at: string; leaseUntil: string }
>;
