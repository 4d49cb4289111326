import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { ProjectionView } from '../../shared/projections/projection';
import type { ReservationCaptured } from '../../wallet/domain/wallet.events';
import type { MessageStatus } from '../domain/message.decider';

/**
 * The console overview's read model: per wallet and day, how many of the messages created that
 * day are now in each status on each carrier, and how many credits were spent (captured) that
 * day. One small document per wallet-day, so the overview reads 14 documents however many
 * messages were sent. Days are UTC dates, which is Ghana time (GMT). Kept by the messages read
 * model (messages.projection.ts), which knows each message's status already: counting apart
 * took a work list of its own, three more document writes a message.
 */
export const MESSAGE_ACTIVITY = 'message-activity';
/**
 * The collection (and projection) that kept where each open message was counted before the
 * messages read model took the counts over (2026-11-27): retired, emptied at the first start.
 */
export const RETIRED_ACTIVITY_OPEN = 'message-activity-open';
export const RETIRED_ACTIVITY_PROJECTION = 'message-activity';

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

export const activityId = (walletId: string, day: string) => `${walletId}|${day}`;
/** The GMT day of an ISO time. */
export const dayOf = (iso: string) => iso.slice(0, 10);

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

/**
 * Moves one wallet message's count on the day it was created from its status (null: not counted
 * yet) to the next. Sandbox try-outs belong to no wallet and are not counted.
 */
export async function countStatus(
  view: ProjectionView,
  message: { readonly walletId: string; readonly createdAt: string; readonly carrier: string },
  from: MessageStatus | null,
  to: MessageStatus,
): Promise<void> {
  if (message.walletId === '') return;
  await change(view, message.walletId, dayOf(message.createdAt), (d) => moved(d, message.carrier, from, to));
}

/** A capture's credits, spent on the day it was recorded whenever its message was created. */
export async function countCapture(recorded: RecordedEvent, view: ProjectionView): Promise<void> {
  const { sms } = (recorded as unknown as ReservationCaptured).data;
  const walletId = recorded.streamId.slice('wallet-'.length);
  await change(view, walletId, dayOf(recorded.recordedAt.toISOString()), (d) => ({
    ...d,
    creditsSpent: d.creditsSpent + sms,
  }));
}
