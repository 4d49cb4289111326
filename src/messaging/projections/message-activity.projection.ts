import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import { opensStream, type Projection, type ProjectionView } from '../../shared/projections/projection';
import type { ReservationCaptured } from '../../wallet/domain/wallet.events';
import { isTerminal, type MessageStatus } from '../domain/message.decider';
import type { MessageEvent } from '../domain/message.events';

/**
 * The console overview's read model: per wallet and day, how many of the messages created that
 * day are now in each status on each carrier, and how many credits were spent (captured) that
 * day. One small document per wallet-day, so the overview reads 14 documents however many
 * messages were sent. Days are UTC dates, which is Ghana time (GMT).
 */
export const MESSAGE_ACTIVITY = 'message-activity';
/**
 * Where each message not yet final is counted (its wallet, day, carrier and status), so a later
 * event, which names only the message, can move its count; deleted once the message is final.
 */
export const ACTIVITY_OPEN = 'message-activity-open';
export const MESSAGE_ACTIVITY_PROJECTION = 'message-activity';

export type StatusCounts = Partial<Record<MessageStatus, number>>;

export interface WalletDayActivity {
  readonly walletId: string;
  /** YYYY-MM-DD, GMT. */
  readonly day: string;
  /** carrier → status → messages created this day that are in this status now. */
  readonly messages: Readonly<Record<string, StatusCounts>>;
  /** Credits captured (delivered messages' cost) this day, whenever their messages were created. */
  readonly creditsSpent: number;
}

interface OpenMessage {
  readonly walletId: string;
  readonly day: string;
  readonly carrier: string;
  readonly status: MessageStatus;
  /** Stream revision last applied. */
  readonly revision: string;
}

export const activityId = (walletId: string, day: string) => `${walletId}|${day}`;
/** The GMT day of an ISO time. */
export const dayOf = (iso: string) => iso.slice(0, 10);

/** The status an event moves a message to, or null when it changes nothing the overview counts. */
function nextStatus(event: MessageEvent, current: MessageStatus): MessageStatus | null {
  switch (event.type) {
    case 'MessageDue':
      return current === 'SCHEDULED' ? 'QUEUED' : null;
    case 'MessageCanceled':
      return current === 'SCHEDULED' ? 'CANCELED' : null;
    case 'MessageSent':
      return 'SENT';
    case 'MessageDelivered':
      return 'DELIVERED';
    case 'MessageFailed':
      return 'FAILED';
    case 'MessageExpired':
      return 'EXPIRED';
    default:
      return null;
  }
}

async function change(
  view: ProjectionView,
  walletId: string,
  day: string,
  edit: (doc: WalletDayActivity) => WalletDayActivity,
): Promise<void> {
  const id = activityId(walletId, day);
  const doc = (await view.get<WalletDayActivity>(MESSAGE_ACTIVITY, id)) ?? {
    walletId,
    day,
    messages: {},
    creditsSpent: 0,
  };
  view.put(MESSAGE_ACTIVITY, id, edit(doc), { partition: walletId, sort: day });
}

function moved(
  doc: WalletDayActivity,
  carrier: string,
  from: MessageStatus | null,
  to: MessageStatus,
): WalletDayActivity {
  const counts: Record<string, number> = { ...doc.messages[carrier] };
  if (from) counts[from] = Math.max(0, (counts[from] ?? 0) - 1);
  counts[to] = (counts[to] ?? 0) + 1;
  return { ...doc, messages: { ...doc.messages, [carrier]: counts } };
}

async function applyMessage(recorded: RecordedEvent, view: ProjectionView): Promise<void> {
  const event = recorded as unknown as RecordedEvent & MessageEvent;
  const messageId = recorded.streamId.slice('message-'.length);
  const open = opensStream(recorded) ? null : await view.get<OpenMessage>(ACTIVITY_OPEN, messageId);
  if (event.type === 'MessageQueued' || event.type === 'MessageScheduled') {
    const { walletId, carrier, createdAt } = event.data;
    if (open || walletId === '') return; // counted already; sandbox try-outs belong to no wallet
    const status: MessageStatus = event.type === 'MessageScheduled' ? 'SCHEDULED' : 'QUEUED';
    const day = dayOf(createdAt);
    const doc: OpenMessage = { walletId, day, carrier, status, revision: recorded.revision.toString() };
    view.put(ACTIVITY_OPEN, messageId, doc, undefined, { fresh: true });
    await change(view, walletId, day, (d) => moved(d, carrier, null, status));
    return;
  }
  if (!open || BigInt(open.revision) >= recorded.revision) return;
  const status = nextStatus(event, open.status);
  if (!status || status === open.status) return;
  await change(view, open.walletId, open.day, (d) => moved(d, open.carrier, open.status, status));
  if (isTerminal(status)) view.delete(ACTIVITY_OPEN, messageId);
  else view.put(ACTIVITY_OPEN, messageId, { ...open, status, revision: recorded.revision.toString() });
}

/**
 * Counts each wallet message once, on the day it was created, under its current status (a
 * status change moves the count); and each capture's credits on the day it was recorded.
 */
export const messageActivityProjection: Projection = {
  name: MESSAGE_ACTIVITY_PROJECTION,
  collections: [MESSAGE_ACTIVITY, ACTIVITY_OPEN],
  filter: {
    streamPrefixes: ['message-', 'wallet-'],
    eventTypes: [
      'MessageQueued',
      'MessageScheduled',
      'MessageDue',
      'MessageCanceled',
      'MessageSent',
      'MessageDelivered',
      'MessageFailed',
      'MessageExpired',
      'ReservationCaptured',
    ],
  },
  async apply(recorded: RecordedEvent, view: ProjectionView) {
    if (recorded.streamId.startsWith('message-')) return applyMessage(recorded, view);
    if (recorded.type !== 'ReservationCaptured') return;
    const { sms } = (recorded as unknown as ReservationCaptured).data;
    const walletId = recorded.streamId.slice('wallet-'.length);
    await change(view, walletId, dayOf(recorded.recordedAt.toISOString()), (d) => ({
      ...d,
      creditsSpent: d.creditsSpent + sms,
    }));
  },
};
