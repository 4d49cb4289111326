import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CampaignLauncher } from '../campaign-launcher';
import type { ApiCampaign } from '../campaign-views';
import { CancelCampaign, CreateCampaign, LaunchedCampaign, RetryCampaign } from './campaign.commands';

@CommandHandler(CreateCampaign)
export class CreateCampaignHandler implements ICommandHandler<CreateCampaign, LaunchedCampaign> {
  constructor(private readonly campaigns: CampaignLauncher) {}

  execute({ sender, input, idempotencyKey }: CreateCampaign): Promise<LaunchedCampaign> {
    return this.campaigns.create(input, sender, idempotencyKey);
  }
}

@CommandHandler(RetryCampaign)
export class RetryCampaignHandler implements ICommandHandler<RetryCampaign, LaunchedCampaign> {
  constructor(private readonly campaigns: CampaignLauncher) {}

  execute({ sender, campaignId, idempotencyKey }: RetryCampaign): Promise<LaunchedCampaign> {
    return this.campaigns.retry(campaignId, sender, idempotencyKey);
  }
}

@CommandHandler(CancelCampaign)
export class CancelCampaignHandler implements ICommandHandler<CancelCampaign, ApiCampaign> {
  constructor(private readonly campaigns: CampaignLauncher) {}

  execute({ sender, campaignId }: CancelCampaign): Promise<ApiCampaign> {
    return this.campaigns.cancel(campaignId, sender);
  }
}
