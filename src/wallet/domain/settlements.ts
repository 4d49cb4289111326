import type { Capture, Release, WalletEvent } from './wallet.events';

const NONE: readonly never[] = [];

/** The captures an event records: one for ReservationCaptured, its list for ReservationsSettled. */
export function capturesIn(event: WalletEvent): readonly Capture[] {
  if (event.type === 'ReservationCaptured') return [event.data];
  if (event.type === 'ReservationsSettled') return event.data.captured;
  return NONE;
}

/** The releases an event records: one for ReservationReleased, its list for ReservationsSettled. */
export function releasesIn(event: WalletEvent): readonly Release[] {
  if (event.type === 'ReservationReleased') return [event.data];
  if (event.type === 'ReservationsSettled') return event.data.released;
  return NONE;
}

/** The credits of these settlements together. */
export function smsOf(settlements: readonly (Capture | Release)[]): number {
  let sms = 0;
  for (const s of settlements) sms += s.sms;
  return sms;
}

/** The wallet events that settle reservations, in either shape. */
export const SETTLEMENT_EVENT_TYPES = [
  'ReservationCaptured',
  'ReservationReleased',
  'ReservationsSettled',
] as const;

const isSettlement = (event: WalletEvent) =>
  event.type === 'ReservationCaptured' || event.type === 'ReservationReleased';

/**
 * What one append of a wallet records: the decisions' events, with each run of two or more
 * settlements back to back made one ReservationsSettled. Behind a campaign a settlement batch is
 * hundreds of captures, and every event costs every reader of the log; as one event it costs them
 * once. Only a run is folded: settlements of different messages commute with each other, but not
 * with a reservation or a release of credits another decision in the batch may have relied on.
 * A lone settlement stays the event it was.
 */
export function foldSettlements(events: readonly WalletEvent[]): readonly WalletEvent[] {
  let folded: WalletEvent[] | null = null;
  for (let i = 0; i < events.length;) {
    let end = i;
    while (end < events.length && isSettlement(events[end])) end++;
    if (end - i >= 2) {
      folded ??= events.slice(0, i);
      folded.push(settled(events.slice(i, end)));
      i = end;
    } else {
      folded?.push(events[i]);
      i++;
    }
  }
  return folded ?? events;
}

function settled(run: readonly WalletEvent[]): WalletEvent {
  const captured: Capture[] = [];
  const released: Release[] = [];
  for (const event of run) {
    if (event.type === 'ReservationCaptured') captured.push(event.data);
    else if (event.type === 'ReservationReleased') released.push(event.data);
  }
  return { type: 'ReservationsSettled', data: { captured, released } };
}
