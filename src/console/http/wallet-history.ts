import { plural } from '../../shared/wording';
import { capturesIn, releasesIn } from '../../wallet/domain/settlements';
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

export function historyRow(event: {
  revision: number;
  type: string;
  data: unknown;
  recorded_at: string;
}): HistoryRow {
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
  const sum = (list: readonly { sms: number }[]) => list.reduce((total, s) => total + s.sms, 0);
  const parts: string[] = [];
  if (captured.length > 0)
    parts.push(`${plural(captured.length, 'message')} delivered, ${plural(sum(captured), 'credit')} spent`);
  if (released.length > 0)
    parts.push(
      `${plural(released.length, 'message')} not delivered, ${plural(sum(released), 'credit')} given back`,
    );
  return parts.join('; ');
}
