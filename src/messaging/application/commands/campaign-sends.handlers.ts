import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CampaignSends } from '../campaign-sends.service';
import {
  CancelScheduledMessages,
  HoldCampaignCredits,
  QueueCampaignMessages,
  ReleaseCampaignHold,
} from './campaign-sends.commands';

@CommandHandler(HoldCampaignCredits)
export class HoldCampaignCreditsHandler implements ICommandHandler<HoldCampaignCredits, bigint> {
  constructor(private readonly campaigns: CampaignSends) {}

  execute({ sender, campaignId, credits, messages, record }: HoldCampaignCredits): Promise<bigint> {
    return this.campaigns.hold(sender, campaignId, credits, messages, record);
  }
}

@CommandHandler(QueueCampaignMessages)
export class QueueCampaignMessagesHandler implements ICommandHandler<QueueCampaignMessages, bigint> {
  constructor(private readonly campaigns: CampaignSends) {}

  execute({ sender, campaignId, messages, record, resumed }: QueueCampaignMessages): Promise<bigint> {
    return this.campaigns.queue(sender, campaignId, messages, record, resumed);
  }
}

@CommandHandler(ReleaseCampaignHold)
export class ReleaseCampaignHoldHandler implements ICommandHandler<ReleaseCampaignHold, void> {
  constructor(private readonly campaigns: CampaignSends) {}

  execute({ walletId, campaignId, reason }: ReleaseCampaignHold): Promise<void> {
    return this.campaigns.releaseHold(walletId, campaignId, reason);
  }
}

@CommandHandler(CancelScheduledMessages)
export class CancelScheduledMessagesHandler implements ICommandHandler<
  CancelScheduledMessages,
  { canceled: number; position: bigint | null }
> {
  constructor(private readonly campaigns: CampaignSends) {}

  execute({ scope, messageIds }: CancelScheduledMessages) {
    return this.campaigns.cancelScheduled(scope, messageIds);
  }
}
