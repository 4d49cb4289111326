import { capturesIn, releasesIn } from '../../src/wallet/domain/settlements';
import type { WalletEvent } from '../../src/wallet/domain/wallet.events';

interface LoggedWalletEvent {
  readonly type: string;
  readonly data: unknown;
}

/**
 * The message ids wallet events captured and released, in order, whether an event settled one
 * (ReservationCaptured, ReservationReleased) or many (ReservationsSettled).
 */
export function settledIn(events: readonly LoggedWalletEvent[]): { captured: string[]; released: string[] } {
  const captured: string[] = [];
  const released: string[] = [];
  for (const event of events as readonly WalletEvent[]) {
    for (const c of capturesIn(event)) captured.push(c.messageId);
    for (const r of releasesIn(event)) released.push(r.messageId);
  }
  return { captured, released };
}

/** The reservations still open: reserved, and neither captured nor released since. */
export function openReservationsIn(events: readonly LoggedWalletEvent[]): Set<string> {
  const open = new Set<string>();
  for (const event of events as readonly WalletEvent[]) {
    if (event.type === 'CreditsReserved') open.add(event.data.messageId);
    for (const c of capturesIn(event)) open.delete(c.messageId);
    for (const r of releasesIn(event)) open.delete(r.messageId);
  }
  return open;
}
