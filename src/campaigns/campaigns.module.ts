import { Module } from '@nestjs/common';
import { MessagingModule } from '../messaging/messaging.module';
import { ProjectionsService } from '../shared/projections/projections.service';
import { CampaignExpander } from './application/campaign-expander';
import { CampaignLauncher } from './application/campaign-launcher';
import { CampaignLists } from './application/campaign-lists';
import { CampaignReader } from './application/campaign-reader';
import { CampaignStore } from './application/campaign-store';
import { CampaignWorker } from './application/campaign-worker';
import {
  CancelCampaignHandler,
  CreateCampaignHandler,
  RetryCampaignHandler,
} from './application/commands/campaign.handlers';
import {
  CampaignByIdHandler,
  CampaignQuoteHandler,
  CampaignReportHandler,
  CampaignsPageHandler,
} from './application/queries/campaign.handlers';
import { CAMPAIGNS_OPTIONS, loadCampaignsOptions } from './campaigns.options';
import { CampaignsHttpController } from './http/campaigns.http.controller';
import { campaignsProjection } from './projections/campaigns.projection';

/**
 * Campaigns to audiences (API.md): a message personalised for each number of an audience of
 * groups and contacts (audiences), every credit held at once, the messages written through
 * messaging's commands and from then on ordinary messages. Campaigns ask audiences, compliance
 * and messaging through their commands and queries (and messaging's Idempotency-Key claims);
 * none of them knows campaigns.
 */
@Module({
  imports: [MessagingModule],
  controllers: [CampaignsHttpController],
  providers: [
    { provide: CAMPAIGNS_OPTIONS, useFactory: () => loadCampaignsOptions() },
    CampaignStore,
    CampaignLists,
    CampaignReader,
    CampaignExpander,
    CampaignLauncher,
    CampaignWorker,
    CreateCampaignHandler,
    RetryCampaignHandler,
    CancelCampaignHandler,
    CampaignQuoteHandler,
    CampaignByIdHandler,
    CampaignsPageHandler,
    CampaignReportHandler,
  ],
})
export class CampaignsModule {
  constructor(projections: ProjectionsService) {
    projections.register(campaignsProjection);
  }
}
