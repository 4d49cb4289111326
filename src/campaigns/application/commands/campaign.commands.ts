import { Command } from '@nestjs/cqrs';
import type { CampaignInput } from '../../domain/campaign-input';
import type { WalletContext } from '../campaign-lists';
import type { ApiCampaign } from '../campaign-views';

export interface LaunchedCampaign {
  readonly campaign: ApiCampaign;
  /** True when an Idempotency-Key replayed an earlier answer instead of making a campaign. */
  readonly replayed: boolean;
}

/** POST /v1/campaigns: one personalised message per recipient, every credit held at once. */
export class CreateCampaign extends Command<LaunchedCampaign> {
  constructor(
    readonly sender: WalletContext,
    readonly input: CampaignInput,
    readonly idempotencyKey: string | null = null,
  ) {
    super();
  }
}

/** POST /v1/campaigns/:id/retry: a new campaign to the recipients whose message ended FAILED or EXPIRED. */
export class RetryCampaign extends Command<LaunchedCampaign> {
  constructor(
    readonly sender: WalletContext,
    readonly campaignId: string,
    readonly idempotencyKey: string | null = null,
  ) {
    super();
  }
}

/** POST /v1/campaigns/:id/cancel: its SCHEDULED messages canceled, its credits released once. */
export class CancelCampaign extends Command<ApiCampaign> {
  constructor(
    readonly sender: WalletContext,
    readonly campaignId: string,
  ) {
    super();
  }
}
