import type { Logger } from '@nestjs/common';
import type { EventStore, RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import type { WalletService } from '../../wallet/application/wallet.service';
import { isAcceptedEventType, type MessageQueuedData, walletNamedBy } from '../domain/message.events';

/** The reason a canceled message's credits went back, whoever releases them first. */
export const CANCELED_REASON = 'message canceled';

/** Why a message's credits went back, by the event that ended it (the wallet event's reason). */
const RELEASE_REASONS: Readonly<Record<string, string>> = {
  MessageFailed: 'message failed',
  MessageExpired: 'message expired',
  MessageCanceled: CANCELED_REASON,
};

/**
 * Settles a message's reservation once its outcome is final: DELIVERED captures, FAILED,
 * EXPIRED and CANCELED release. Capture and release are idempotent per message id, so a replay after a crash
 * (at-least-once) never counts twice. Sandbox messages have no wallet and are skipped.
 *
 * The settling event names the wallet (NamesWallet), so nothing is kept per open message: behind
 * a campaign of 100,000 that was a map of 100,000 entries. An event recorded before it named
 * one is settled on the wallet of its stream's first event, read then.
 */
export function settlementProcess(
  wallets: WalletService,
  events: EventStore,
  logger: Pick<Logger, 'warn'>,
): Projection {
  return {
    name: 'message-settlement',
    kind: 'process-manager',
    collections: [],
    filter: {
      streamPrefixes: ['message-'],
      eventTypes: ['MessageDelivered', 'MessageFailed', 'MessageExpired', 'MessageCanceled'],
    },
    apply(recorded: RecordedEvent, view: ProjectionView) {
      // Settlements of different messages are independent: the batch's captures go to the
      // wallets together, so a busy wallet records them in one append.
      view.afterBatch(() => settle(recorded));
    },
  };

  async function settle(recorded: RecordedEvent): Promise<void> {
    const messageId = recorded.streamId.slice('message-'.length);
    const walletId = walletNamedBy(recorded.data) ?? (await walletFromStream(recorded.streamId));
    if (!walletId) return;
    const result =
      recorded.type === 'MessageDelivered'
        ? await wallets.capture(walletId, messageId)
        : await wallets.release(walletId, messageId, RELEASE_REASONS[recorded.type]);
    if (!result.ok) logger.warn(`settling ${messageId} on ${walletId} refused: ${result.error.code}`);
  }

  async function walletFromStream(streamId: string): Promise<string | null> {
    const [first] = await events.readStream(streamId, { limit: 1 });
    if (!first || !isAcceptedEventType(first.type)) return null;
    return (first.data as MessageQueuedData).walletId ?? null;
  }
}
