import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { ProjectionView } from '../../shared/projections/projection';
import { capturesIn, smsOf } from '../../wallet/domain/settlements';
import type { WalletEvent } from '../../wallet/domain/wallet.events';
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

/** The document as the messages read model changes it: its own, in place (see countStatus). */
type Activity = {
  readonly walletId: string;
  readonly day: string;
  messages: Record<string, StatusCounts>;
  creditsSpent: number;
};

async function activityDoc(view: ProjectionView, walletId: string, day: string): Promise<Activity> {
  const doc = await view.get<Activity>(MESSAGE_ACTIVITY, activityId(walletId, day));
  return doc ?? { walletId, day, messages: {}, creditsSpent: 0 };
}

const putActivity = (view: ProjectionView, doc: Activity) =>
  view.put(MESSAGE_ACTIVITY, activityId(doc.walletId, doc.day), doc, {
    partition: doc.walletId,
    sort: doc.day,
  });

/**
 * Moves one wallet message's count on the day it was created from its status (null: not counted
 * yet) to the next. Sandbox try-outs belong to no wallet and are not counted. The day's document
 * is changed in place and put again, not copied: behind a campaign it moves 300,000 times. It is
 * the projection's own, held by the runner between commits and dropped when the projection
 * resumes from its checkpoint (as the campaigns read model's are).
 */
export async function countStatus(
  view: ProjectionView,
  message: { readonly walletId: string; readonly createdAt: string; readonly carrier: string },
  from: MessageStatus | null,
  to: MessageStatus,
): Promise<void> {
  if (message.walletId === '') return;
  const doc = await activityDoc(view, message.walletId, dayOf(message.createdAt));
  const counts = (doc.messages[message.carrier] ??= {});
  if (from) counts[from] = Math.max(0, (counts[from] ?? 0) - 1);
  counts[to] = (counts[to] ?? 0) + 1;
  putActivity(view, doc);
}

/** A capture's credits, spent on the day it was recorded whenever its message was created. */
export async function countDaySpending(recorded: RecordedEvent, view: ProjectionView): Promise<void> {
  const sms = smsOf(capturesIn(recorded as unknown as WalletEvent));
  if (sms === 0) return;
  const walletId = recorded.streamId.slice('wallet-'.length);
  const doc = await activityDoc(view, walletId, dayOf(recorded.recordedAt.toISOString()));
  doc.creditsSpent += sms;
  putActivity(view, doc);
}
