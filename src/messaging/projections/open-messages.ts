import type { ProjectionView } from '../../shared/projections/projection';
import { campaignOfMessage } from '../domain/campaign-message-ids';

/**
 * Messages without a final outcome (the expiry sweep's work list, and where the TEST simulator's
 * lost receipts are found after a restart), partition 'open', sorted by the end of validity.
 *
 * An entry is a window: the messages accepted together (one batch, or a thousand places of one
 * campaign) whose validity ends at the same instant, listing those still open. Behind a campaign
 * of 100,000 messages that is 100 entries, each written when its messages are accepted and again
 * as they end, where the writes of one projection batch fold into one; an entry per message cost
 * a put and a delete for each. A single send's window is the message alone, named by its id.
 */
export const OPEN_MESSAGES = 'message-open';
export const OPEN_PARTITION = 'open';

/** Places of a campaign's list one window holds. */
const CAMPAIGN_WINDOW_PLACES = 1000;

export interface OpenWindow {
  readonly window: string;
  readonly validUntil: string;
  /** The window's messages still open, as keys: a message ends in constant time, not a search. */
  readonly open: Record<string, 1>;
  /** How many keys `open` has: counting them is a walk over every one. */
  count: number;
}

/** An entry written before windows (until 2026-11-27): one message, named by its id. */
interface OpenMessage {
  readonly messageId: string;
  readonly validUntil: string;
}

export type OpenEntry = OpenWindow | OpenMessage;

export function openMessageIds(entry: OpenEntry): string[] {
  return 'open' in entry ? Object.keys(entry.open) : [entry.messageId];
}

/** Where the listing continues after this entry. */
export const openEntrySort = (entry: OpenEntry) =>
  `${entry.validUntil}|${'window' in entry ? entry.window : entry.messageId}`;

/** The window an accepted message opens in: derived from what it was sent in, so a replay names the same. */
export function openWindowOf(message: {
  readonly messageId: string;
  readonly validUntil: string;
  readonly batchId?: string;
  readonly campaignId?: string;
}): string {
  if (message.batchId) return `${message.batchId}|${message.validUntil}`;
  const place = message.campaignId ? campaignOfMessage(message.messageId)?.place : undefined;
  if (place === undefined) return message.messageId;
  return `${message.campaignId}.${Math.floor(place / CAMPAIGN_WINDOW_PLACES)}|${message.validUntil}`;
}

/**
 * Lists an accepted message in its window. The window is the projection's own document, changed in
 * place and put again (held by the runner between commits, dropped when it resumes from its
 * checkpoint); a window not stored yet is put fresh, so one whose messages all end before the
 * commit is never written. A message alone in its window (a single send) opens a new one without
 * reading: the read model applies a message's accept once.
 */
export async function openMessage(
  view: ProjectionView,
  window: string,
  messageId: string,
  validUntil: string,
): Promise<void> {
  const stored = window === messageId ? null : await view.get<OpenWindow>(OPEN_MESSAGES, window);
  const entry: OpenWindow = stored ?? { window, validUntil, open: {}, count: 0 };
  add(entry, messageId);
  view.put(
    OPEN_MESSAGES,
    window,
    entry,
    { partition: OPEN_PARTITION, sort: openEntrySort(entry) },
    { fresh: !stored },
  );
}

/**
 * Takes an ended message off its window's list; the window goes when none of its messages is open.
 * A message alone in its window, or listed before windows (either way keyed by its id), takes its
 * entry with it without reading it.
 */
export async function closeMessage(view: ProjectionView, window: string, messageId: string): Promise<void> {
  if (window === messageId) return view.delete(OPEN_MESSAGES, window);
  const stored = await view.get<OpenWindow>(OPEN_MESSAGES, window);
  if (!stored || !(messageId in stored.open)) return;
  delete stored.open[messageId];
  stored.count--;
  if (stored.count === 0) view.delete(OPEN_MESSAGES, window);
  else view.put(OPEN_MESSAGES, window, stored, { partition: OPEN_PARTITION, sort: openEntrySort(stored) });
}

function add(entry: OpenWindow, messageId: string): void {
  if (messageId in entry.open) return;
  entry.open[messageId] = 1;
  entry.count++;
}
