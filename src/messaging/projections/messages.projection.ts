import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import { opensStream, type Projection, type ProjectionView } from '../../shared/projections/projection';
import type { MessageStatus } from '../domain/message.decider';
import type {
  MessageEvent,
  MessageOutcomeData,
  MessageQueuedData,
  MessageScheduledData,
} from '../domain/message.events';
import { MESSAGE_EVENT_TYPES } from '../domain/message.events';
import type { Encoding, Environment, FinalStatus } from '../ports/carrier.port';
import { closeMessage, OPEN_MESSAGES, openMessage, openWindowOf } from './open-messages';
import {
  countDaySpending,
  countStatus,
  MESSAGE_ACTIVITY,
  RETIRED_ACTIVITY_OPEN,
  RETIRED_ACTIVITY_PROJECTION,
} from './message-activity.projection';

/** Messages by id, also listed per wallet (partition = walletId, newest first by `sort`). */
export const MESSAGES = 'messages';
/**
 * LIVE carrier message id (`${carrier}:${id}`) → message id: how a receipt from another process's
 * submission, or one after a restart, finds its message. (TEST receipts name their message.)
 */
export const MESSAGE_CARRIER_REFS = 'message-carrier-refs';
/**
 * Retired 2026-11-27: the messages of each batch send, `?batch=`'s index until the batch's record
 * (which names them in order) was read instead. Nothing writes it; it stays among the projection's
 * collections so that a rebuild clears what earlier versions wrote.
 */
export const RETIRED_BATCH_MESSAGES = 'message-batch-items';
/** Sandbox try-out messages have no wallet; they are listed in no wallet's partition. */
export const SANDBOX_PARTITION = 'sandbox';

export const MESSAGES_PROJECTION = 'messages';

export interface DlrView {
  readonly status: FinalStatus;
  readonly error_code: string | null;
  readonly error_message: string | null;
  readonly carrier_status: string | null;
  readonly reported_at: string;
}

/** The message as reads see it; `toApiMessage` turns it into API.md's object. */
export interface MessageDoc {
  readonly id: string;
  readonly walletId: string;
  readonly accountId: string;
  readonly sandbox: boolean;
  readonly environment: Environment;
  readonly to: string;
  readonly senderId: string;
  readonly body: string;
  readonly type: string;
  readonly carrier: string;
  readonly encoding: Encoding;
  readonly segments: number;
  readonly credits: number;
  readonly status: MessageStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly validUntil: string;
  readonly sentAt: string | null;
  /** When a scheduled message is due; absent for one queued at once (and on documents from before). */
  readonly sendAt?: string;
  readonly carrierMessageIds: readonly string[];
  readonly dlr: DlrView | null;
  /** Listing order within the wallet: createdAt then log position, so ties never flip. */
  readonly sort: string;
  /** Stream revision last applied: events at or below it were already folded in. */
  readonly revision: string;
  /** The open-messages window it is listed in while open, when not its own (open-messages.ts). */
  readonly openWindow?: string;
}

export interface ApiMessage {
  readonly id: string;
  readonly object: 'message';
  readonly status: MessageStatus;
  readonly environment: Environment;
  readonly to: string;
  readonly sender_id: string;
  readonly message: string;
  readonly type: string;
  readonly carrier: string;
  readonly encoding: Encoding;
  readonly segments: number;
  readonly credits: number;
  readonly created_at: string;
  readonly updated_at: string;
  /** When a scheduled send is (or was) due; null for a send queued at once. */
  readonly send_at: string | null;
  readonly dlr: DlrView | null;
}

export function toApiMessage(doc: MessageDoc): ApiMessage {
  return {
    id: doc.id,
    object: 'message',
    status: doc.status,
    environment: doc.environment,
    to: doc.to,
    sender_id: doc.senderId,
    message: doc.body,
    type: doc.type,
    carrier: doc.carrier,
    encoding: doc.encoding,
    segments: doc.segments,
    credits: doc.credits,
    created_at: doc.createdAt,
    updated_at: doc.updatedAt,
    send_at: doc.sendAt ?? null,
    dlr: doc.dlr,
  };
}

export const isSandboxQueued = (data: MessageQueuedData) => data.walletId === '';

export function sortKey(createdAt: string, position: bigint): string {
  return `${createdAt}|${position.toString().padStart(20, '0')}`;
}

/**
 * The document a freshly accepted message has (also what POST answers, before any read): QUEUED,
 * or SCHEDULED when it has a `sendAt`.
 */
export function queuedDoc(
  data: MessageQueuedData | MessageScheduledData,
  sort: string,
  revision: bigint,
): MessageDoc {
  const sendAt = 'sendAt' in data ? data.sendAt : undefined;
  const window = openWindowOf(data);
  return {
    id: data.messageId,
    walletId: data.walletId,
    accountId: data.accountId,
    sandbox: isSandboxQueued(data),
    environment: data.environment,
    to: data.to,
    senderId: data.senderId,
    body: data.body,
    type: data.type,
    carrier: data.carrier,
    encoding: data.encoding,
    segments: data.segments,
    credits: data.credits,
    status: sendAt ? 'SCHEDULED' : 'QUEUED',
    ...(sendAt ? { sendAt } : {}),
    createdAt: data.createdAt,
    updatedAt: data.createdAt,
    validUntil: data.validUntil,
    sentAt: null,
    carrierMessageIds: [],
    dlr: null,
    sort,
    revision: revision.toString(),
    ...(window === data.messageId ? {} : { openWindow: window }),
  };
}

const later = (a: string, b: string) => (Date.parse(b) > Date.parse(a) ? b : a);
const moveTo = (doc: Changing, status: MessageStatus, at: string) => {
  doc.status = status;
  doc.updatedAt = later(doc.updatedAt, at);
};
const isFinal = (status: MessageStatus) =>
  status === 'DELIVERED' || status === 'FAILED' || status === 'EXPIRED' || status === 'CANCELED';

/** The document as this projection changes it: its own, in place (see messagesProjection). */
type Changing = { -readonly [K in keyof MessageDoc]: MessageDoc[K] };

function settle(doc: Changing, status: FinalStatus, data: MessageOutcomeData): void {
  doc.status = status;
  doc.updatedAt = later(doc.updatedAt, data.at);
  doc.dlr = {
    status,
    error_code: data.errorCode,
    error_message: data.errorMessage,
    carrier_status: data.carrierStatus,
    reported_at: data.at,
  };
}

const listing = (doc: MessageDoc) => ({
  partition: doc.sandbox ? SANDBOX_PARTITION : doc.walletId,
  sort: doc.sort,
});

/**
 * The message read model, the work lists the messaging process managers read, and the console
 * overview's counts per wallet and day (MESSAGE_ACTIVITY, moved as each message's status moves).
 * Idempotent: each document remembers the stream revision it reflects. A message's document is
 * changed in place by its later events and put again, not copied: it is the projection's own,
 * held by the runner between commits and dropped when the projection resumes from its checkpoint
 * (as the wallet balances' are). Behind a campaign each message's document was copied three or
 * four times on its way to DELIVERED, all of it garbage for the worker's collector.
 */
export const messagesProjection: Projection = {
  name: MESSAGES_PROJECTION,
  collections: [MESSAGES, MESSAGE_CARRIER_REFS, OPEN_MESSAGES, RETIRED_BATCH_MESSAGES, MESSAGE_ACTIVITY],
  replaces: [{ name: RETIRED_ACTIVITY_PROJECTION, collections: [RETIRED_ACTIVITY_OPEN] }],
  filter: {
    streamPrefixes: ['message-', 'wallet-'],
    eventTypes: [...MESSAGE_EVENT_TYPES, 'ReservationCaptured', 'ReservationsSettled'],
  },
  async apply(recorded: RecordedEvent, view: ProjectionView) {
    if (recorded.streamId.startsWith('wallet-')) return countDaySpending(recorded, view);
    const event = recorded as unknown as RecordedEvent & MessageEvent;
    const messageId = recorded.streamId.slice('message-'.length);
    const current = opensStream(recorded) ? null : await view.get<MessageDoc>(MESSAGES, messageId);
    if (current && BigInt(current.revision) >= recorded.revision) return;
    if (event.type === 'MessageQueued' || event.type === 'MessageScheduled') {
      if (current) return;
      const doc = queuedDoc(event.data, sortKey(event.data.createdAt, recorded.position), recorded.revision);
      view.put(MESSAGES, messageId, doc, listing(doc));
      await openMessage(view, doc.openWindow ?? messageId, messageId, doc.validUntil);
      await countStatus(view, doc, null, doc.status);
      return;
    }
    if (!current || isFinal(current.status)) return;
    const doc = current as Changing;
    const from = doc.status;
    doc.revision = recorded.revision.toString();
    switch (event.type) {
      case 'MessageDue':
        if (from === 'SCHEDULED') moveTo(doc, 'QUEUED', event.data.at);
        break;
      case 'MessageCanceled':
        if (from === 'SCHEDULED') moveTo(doc, 'CANCELED', event.data.at);
        break;
      case 'MessageSent':
        moveTo(doc, 'SENT', event.data.sentAt);
        doc.sentAt = event.data.sentAt;
        doc.carrierMessageIds = event.data.carrierMessageIds;
        if (doc.environment === 'LIVE') {
          for (const id of event.data.carrierMessageIds) {
            view.put(MESSAGE_CARRIER_REFS, `${doc.carrier}:${id}`, { messageId });
          }
        }
        break;
      case 'MessageDelivered':
        settle(doc, 'DELIVERED', event.data);
        break;
      case 'MessageFailed':
        settle(doc, 'FAILED', event.data);
        break;
      case 'MessageExpired':
        settle(doc, 'EXPIRED', event.data);
        break;
      default:
        break; // claims, deferrals and per-part reports do not change what the API shows
    }
    if (isFinal(doc.status)) await closeMessage(view, doc.openWindow ?? messageId, messageId);
    view.put(MESSAGES, messageId, doc, listing(doc));
    if (doc.status !== from) await countStatus(view, doc, from, doc.status);
  },
};
