import { isTerminal } from '../../messaging/domain/message.decider';

/** While an outcome is not final, its page reloads itself this often (a meta refresh: works without JavaScript). */
export const REFRESH_SECONDS = 2;

/**
 * A scheduled message is watched only once it is this close to its send_at: a page for a message
 * due tomorrow does not reload itself every 2 s until then.
 */
export const WATCH_SCHEDULED_WITHIN_MS = 60_000;

export interface ShownMessage {
  readonly status: string;
  readonly send_at?: string | null;
}

/** Whether a page showing these messages should reload itself: one of them is about to change. */
export function awaitingOutcome(messages: readonly ShownMessage[], now: number): boolean {
  return messages.some((m) => {
    if (isTerminal(m.status)) return false;
    if (m.status !== 'SCHEDULED' || !m.send_at) return true;
    return Date.parse(m.send_at) - now <= WATCH_SCHEDULED_WITHIN_MS;
  });
}

/**
 * The console's "Send at" field (`<input type="datetime-local">`, Ghana time, which is GMT all
 * year) as the API's `send_at`: `2026-12-01T09:30` becomes `2026-12-01T09:30:00Z`. Empty is a
 * send now; anything else goes as typed, for the send path to accept or refuse (invalid_send_at).
 */
export function sendAtFromForm(value: string): string | undefined {
  const typed = value.trim();
  if (typed === '') return undefined;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(typed)) return `${typed}:00Z`;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(typed)) return `${typed}Z`;
  return typed;
}

/** A `send_at` back in the "Send at" field (a form shown again after a refusal): as it was typed. */
export function formSendAt(sendAt: string | undefined): string {
  if (!sendAt) return '';
  const typed = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:00)?Z$/.exec(sendAt);
  return typed ? typed[1] : sendAt;
}
