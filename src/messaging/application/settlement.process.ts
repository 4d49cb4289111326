import type { Logger } from '@nestjs/common';
import type { EventStore, RecordedEvent } from '../../shared/event-store/event-store.port';
import { Interner, RecentlyUsed } from '../../shared/recently-used';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import type { WalletService } from '../../wallet/application/wallet.service';
import { ACCEPTED_EVENT_TYPES, isAcceptedEventType, type MessageQueuedData } from '../domain/message.events';

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
 */
export function settlementProcess(
  wallets: WalletService,
  events: EventStore,
  logger: Pick<Logger, 'warn'>,
): Projection {
  // Each open message's wallet, noted from MessageQueued (or MessageScheduled) as it goes by, so settling reads no
  // stream; after a restart (or for one pushed out) the stream's first event says it.
  const walletOf = new RecentlyUsed<string, string | null>(MAX_OPEN_MESSAGES);
  const walletIds = new Interner(WALLETS_INTERNED);
  return {
    name: 'message-settlement',
    kind: 'process-manager',
    collections: [],
    filter: {
      streamPrefixes: ['message-'],
      eventTypes: [
        ...ACCEPTED_EVENT_TYPES,
        'MessageDelivered',
        'MessageFailed',
        'MessageExpired',
        'MessageCanceled',
      ],
    },
    apply(recorded: RecordedEvent, view: ProjectionView) {
      if (isAcceptedEventType(recorded.type)) {
        const walletId = (recorded.data as MessageQueuedData).walletId;
        walletOf.set(recorded.streamId, walletId ? walletIds.of(walletId) : null);
        return;
      }
      // Settlements of different messages are independent: the batch's captures go to the
      // wallets together, so a busy wallet records them in one append.
      view.afterBatch(() => settle(recorded));
    },
  };

  async function settle(recorded: RecordedEvent): Promise<void> {
    const messageId = recorded.streamId.slice('message-'.length);
    const walletId = walletOf.has(recorded.streamId)
      ? walletOf.peek(recorded.streamId)
      : await walletFromStream(recorded.streamId);
    walletOf.delete(recorded.streamId);
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

/** Messages queued and not settled yet whose wallet is kept in memory. */
const MAX_OPEN_MESSAGES = 100_000;
/** Wallet ids kept as one copy each for `walletOf` (a campaign's 100,000 messages have one). */
const WALLETS_INTERNED = 10_000;
