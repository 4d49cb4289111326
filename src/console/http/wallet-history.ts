import { plural } from '../../shared/wording';
import type { WalletEventView } from '../../wallet/application/queries/wallet-events-page.query';
import { capturesIn, releasesIn, smsOf } from '../../wallet/domain/settlements';
import type { WalletEvent } from '../../wallet/domain/wallet.events';

/** A wallet event as the history page shows it: its data as the JSON auditors replay. */
export interface HistoryRow {
  readonly revision: number;
  readonly type: string;
  readonly data: string;
  readonly recorded_at: string;
  /** What a ReservationsSettled did, in a line; its data, hundreds of entries, is shown folded. */
  readonly summary: string | null;
}

export function historyRow(event: WalletEventView): HistoryRow {
  return {
    revision: event.revision,
    type: event.type,
    data: JSON.stringify(event.data, null, 2),
    recorded_at: event.recorded_at,
    summary: event.type === 'ReservationsSettled' ? settledSummary(event as unknown as WalletEvent) : null,
  };
}

/** "3 messages delivered, 8 credits spent; 1 message not delivered, 2 credits given back". */
function settledSummary(event: WalletEvent): string {
  const captured = capturesIn(event);
  const released = releasesIn(event);
  const parts: string[] = [];
  if (captured.length > 0)
    parts.push(`${plural(captured.length, 'message')} delivered, ${plural(smsOf(captured), 'credit')} spent`);
  if (released.length > 0)
    parts.push(
      `${plural(released.length, 'message')} not delivered, ${plural(smsOf(released), 'credit')} given back`,
    );
  return parts.join('; ');
}
