import type { Encoding, Environment, FinalStatus } from '../ports/carrier.port';
import type { MessageType } from './message-input';

/** Stream of one message aggregate. */
export const messageStream = (messageId: string) => `message-${messageId}`;

// Event data are type aliases (not interfaces) so they stay assignable to plain JSON records.
// Every time is an ISO-8601 UTC string.

export type MessageQueuedData = {
  readonly messageId: string;
  readonly walletId: string;
  readonly accountId: string;
  readonly environment: Environment;
  readonly to: string;
  readonly senderId: string;
  readonly body: string;
  readonly type: MessageType;
  readonly carrier: string;
  readonly encoding: Encoding;
  readonly segments: number;
  readonly credits: number;
  readonly validUntil: string;
  readonly createdAt: string;
  readonly idempotencyKey: string | null;
  /** The batch (POST /v1/messages/batch) the message was sent in; absent for a single send. */
  readonly batchId?: string;
  /** The campaign (POST /v1/campaigns) the message was sent in; absent otherwise. */
  readonly campaignId?: string;
  /**
   * A secret message (a one-time code): its text sealed with the SecretBox (AES-256-GCM), opened
   * only by the dispatcher to hand it to the carrier. `body` is then the masked display text that
   * every read shows; encoding, segments and credits are those of the sealed text.
   */
  readonly sealedBody?: string;
};

/**
 * Accepted for later (`send_at`): the queued facts with the time it is due. Its credits are
 * reserved with it, as for MessageQueued; its validity counts from `sendAt`.
 */
export type MessageScheduledData = MessageQueuedData & { readonly sendAt: string };

/** A scheduled message's time came: it is QUEUED for the dispatcher from here on. */
export type MessageDueData = { readonly at: string };

/**
 * Settling events (MessageSent, the outcomes, MessageCanceled) name the message's wallet (`''` for
 * a sandbox try-out), so that settlement and the webhooks know whose it is without keeping every
 * open message's wallet in memory or reading its stream. Absent on events recorded before
 * 2026-11-27: those consumers then read the stream's first event.
 */
type NamesWallet = { readonly walletId?: string };

/** The merchant canceled a scheduled message before it was due: its credits go back. Nothing follows it. */
export type MessageCanceledData = { readonly at: string } & NamesWallet;

/** A dispatcher holds the message until `leaseUntil`, so two processes never submit it twice. */
export type MessageClaimedData = { readonly dispatcherId: string; readonly leaseUntil: string };

/** The carrier took it: one id per part, in part order. */
export type MessageSentData = {
  readonly carrierMessageIds: readonly string[];
  readonly sentAt: string;
} & NamesWallet;

/** The carrier said "not now": the claim is released and the next try waits for `retryAt`. */
export type MessageSubmitDeferredData = { readonly reason: string; readonly retryAt: string };

/** One part's delivery receipt. */
export type DeliveryReportedData = {
  readonly carrierMessageId: string;
  readonly status: FinalStatus;
  readonly carrierStatus: string;
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
  readonly reportedAt: string;
};

/**
 * The terminal facts: DELIVERED, FAILED or EXPIRED. Nothing follows them. An outcome a receipt
 * decided carries that receipt (`report`): the two always travel together, so they are one event.
 * (Messages recorded before that have a DeliveryReported of their own before the outcome.)
 */
export type MessageOutcomeData = {
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
  readonly carrierStatus: string | null;
  readonly at: string;
  readonly report?: DeliveryReportedData;
} & NamesWallet;

/** Never accepted (e.g. crash recovery found a reservation without a message). Nothing follows it. */
export type MessageRejectedData = { readonly reason: string; readonly at: string };

export type MessageEvent =
  | { readonly type: 'MessageQueued'; readonly data: MessageQueuedData }
  | { readonly type: 'MessageScheduled'; readonly data: MessageScheduledData }
  | { readonly type: 'MessageDue'; readonly data: MessageDueData }
  | { readonly type: 'MessageCanceled'; readonly data: MessageCanceledData }
  | { readonly type: 'MessageClaimed'; readonly data: MessageClaimedData }
  | { readonly type: 'MessageSent'; readonly data: MessageSentData }
  | { readonly type: 'MessageSubmitDeferred'; readonly data: MessageSubmitDeferredData }
  | { readonly type: 'DeliveryReported'; readonly data: DeliveryReportedData }
  | { readonly type: 'MessageDelivered'; readonly data: MessageOutcomeData }
  | { readonly type: 'MessageFailed'; readonly data: MessageOutcomeData }
  | { readonly type: 'MessageExpired'; readonly data: MessageOutcomeData }
  | { readonly type: 'MessageRejected'; readonly data: MessageRejectedData };

export type MessageEventType = MessageEvent['type'];

/**
 * The wallet a message event names: its first event (MessageQueued, MessageScheduled) always,
 * a settling one when it was recorded with one (see NamesWallet); undefined for the others.
 */
export const walletNamedBy = (data: unknown): string | undefined => {
  const walletId = (data as NamesWallet | null)?.walletId;
  return typeof walletId === 'string' ? walletId : undefined;
};

export const MESSAGE_EVENT_TYPES: readonly MessageEventType[] = [
  'MessageQueued',
  'MessageScheduled',
  'MessageDue',
  'MessageCanceled',
  'MessageClaimed',
  'MessageSent',
  'MessageSubmitDeferred',
  'DeliveryReported',
  'MessageDelivered',
  'MessageFailed',
  'MessageExpired',
  'MessageRejected',
];

/** The events that start a message's stream when a send accepts it (its credits reserved with it). */
export const ACCEPTED_EVENT_TYPES: readonly MessageEventType[] = ['MessageQueued', 'MessageScheduled'];

export const isAcceptedEventType = (type: string): type is 'MessageQueued' | 'MessageScheduled' =>
  type === 'MessageQueued' || type === 'MessageScheduled';

/**
 * The event a send starts the message's stream with: MessageQueued for now, MessageScheduled
 * when it is due later (`sendAt`, already validated by validateSendAt).
 */
export function acceptedEvent(
  data: MessageQueuedData,
  sendAt: string | null | undefined,
): Extract<MessageEvent, { type: 'MessageQueued' | 'MessageScheduled' }> {
  return sendAt ? { type: 'MessageScheduled', data: { ...data, sendAt } } : { type: 'MessageQueued', data };
}
