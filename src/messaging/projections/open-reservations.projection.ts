import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import { releasesIn } from '../../wallet/domain/settlements';
import type { WalletEvent } from '../../wallet/domain/wallet.events';

/**
 * Reservations whose message was not queued (yet), partition 'open' sorted by reservedAt: the
 * orphan reaper's work list. A reservation leaves it when its message is queued or it is settled.
 * The send path reserves before it queues, so in log order CreditsReserved always comes first.
 */
export const UNQUEUED_RESERVATIONS = 'message-unqueued-reservations';
export const UNQUEUED_PARTITION = 'open';
export const UNQUEUED_RESERVATIONS_PROJECTION = 'message-unqueued-reservations';

export interface UnqueuedReservation {
  readonly messageId: string;
  readonly walletId: string;
  readonly reservedAt: string;
  /** The instance whose send made it (absent on reservations recorded before instances were). */
  readonly instance?: string;
}

export const unqueuedReservationsProjection: Projection = {
  name: UNQUEUED_RESERVATIONS_PROJECTION,
  collections: [UNQUEUED_RESERVATIONS],
  // Not ReservationCaptured: only a delivered message is captured, and it was queued long before.
  filter: {
    streamPrefixes: ['wallet-', 'message-'],
    eventTypes: [
      'CreditsReserved',
      'ReservationReleased',
      'ReservationsSettled',
      'MessageQueued',
      'MessageScheduled',
      'MessageRejected',
    ],
  },
  async apply(recorded: RecordedEvent, view: ProjectionView) {
    const type = recorded.type;
    if (type === 'CreditsReserved') {
      const data = (recorded as unknown as WalletEvent & { type: 'CreditsReserved' }).data;
      const doc: UnqueuedReservation = {
        messageId: data.messageId,
        walletId: recorded.streamId.slice('wallet-'.length),
        reservedAt: data.reservedAt,
        ...(data.instance ? { instance: data.instance } : {}),
      };
      // Fresh: a send reserves and queues in one append where the store can, so the delete for
      // its MessageQueued usually comes in the same batch and nothing is written at all.
      view.put(
        UNQUEUED_RESERVATIONS,
        data.messageId,
        doc,
        { partition: UNQUEUED_PARTITION, sort: `${data.reservedAt}|${data.messageId}` },
        { fresh: true },
      );
      return;
    }
    if (type === 'MessageRejected') return; // the reaper releases it next; keep it listed until then
    if (type === 'ReservationsSettled') {
      for (const { messageId } of releasesIn(recorded as unknown as WalletEvent))
        view.delete(UNQUEUED_RESERVATIONS, messageId);
      return;
    }
    const messageId =
      type === 'MessageQueued' || type === 'MessageScheduled'
        ? recorded.streamId.slice('message-'.length)
        : (recorded.data as { messageId: string }).messageId;
    view.delete(UNQUEUED_RESERVATIONS, messageId);
  },
};
