import type { Logger } from '@nestjs/common';
import type { EventStore, RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import type { WalletService } from '../../wallet/application/wallet.service';
import type { MessageQueuedData } from '../domain/message.events';

/**
 * Settles a message's reservation once its outcome is final: DELIVERED captures, FAILED and
 * EXPIRED release. Capture and release are idempotent per message id, so a replay after a crash
 * (at-least-once) never counts twice. Sandbox messages have no wallet and are skipped.
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
      eventTypes: ['MessageDelivered', 'MessageFailed', 'MessageExpired'],
    },
    apply(recorded: RecordedEvent, view: ProjectionView) {
      // Settlements of different messages are independent: the batch's captures go to the
      // wallets together, so a busy wallet records them in one append.
      view.afterBatch(() => settle(recorded));
    },
  };

  async function settle(recorded: RecordedEvent): Promise<void> {
    const [first] = await events.readStream(recorded.streamId, { limit: 1 });
    if (first?.type !== 'MessageQueued') return;
    const queued = first.data as MessageQueuedData;
    if (!queued.walletId) return;
    const result =
      recorded.type === 'MessageDelivered'
        ? await wallets.capture(queued.walletId, queued.messageId)
        : await wallets.release(
            queued.walletId,
            queued.messageId,
            `message ${recorded.type === 'MessageFailed' ? 'failed' : 'expired'}`,
          );
    if (!result.ok)
      logger.warn(`settling ${queued.messageId} on ${queued.walletId} refused: ${result.error.code}`);
  }
}
