import { Command } from '@nestjs/cqrs';
import type { StreamAppend } from '../../../shared/event-store/event-store.port';
import type { Environment } from '../../ports/carrier.port';
import type { CampaignMessage } from '../campaign-sends.service';
import type { SendContext } from '../send-pipeline.service';

type WalletContext = Extract<SendContext, { mode: 'wallet' }>;

/**
 * Holds a whole campaign's credits in one wallet decision (402 and nothing otherwise), with the
 * campaign's first events (`record`) written in the same write. Answers the record's log position.
 */
export class HoldCampaignCredits extends Command<bigint> {
  constructor(
    readonly sender: WalletContext,
    readonly campaignId: string,
    readonly credits: number,
    /** How many messages the credits are for (a TEST wallet's daily quota counts them). */
    readonly messages: number,
    readonly record: readonly StreamAppend[],
  ) {
    super();
  }
}

/**
 * Writes a chunk of a campaign's messages through the one send path's write: reservations taken
 * from the campaign's hold, the messages' first events (carrying `campaignId`) and the campaign's
 * progress (`record`), together. Answers the log position of the write.
 */
export class QueueCampaignMessages extends Command<bigint> {
  constructor(
    readonly sender: WalletContext,
    readonly campaignId: string,
    readonly messages: readonly CampaignMessage[],
    readonly record: readonly StreamAppend[],
    /** The chunk may have been written in part before an interruption. */
    readonly resumed: boolean,
  ) {
    super();
  }
}

/** Gives back what is left of a campaign's hold; idempotent. */
export class ReleaseCampaignHold extends Command<void> {
  constructor(
    readonly walletId: string,
    readonly campaignId: string,
    readonly reason: string,
  ) {
    super();
  }
}

/** Cancels those of the messages that are still SCHEDULED, releasing their credits. */
export class CancelScheduledMessages extends Command<{ canceled: number; position: bigint | null }> {
  constructor(
    readonly scope: { readonly walletId: string; readonly environment: Environment },
    readonly messageIds: readonly string[],
  ) {
    super();
  }
}
