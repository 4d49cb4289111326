import { Query } from '@nestjs/cqrs';
import type { ListPage } from '../../../shared/http/pagination';
import type { CampaignInput } from '../../domain/campaign-input';
import type { WalletContext } from '../campaign-lists';
import type { ApiCampaign, ApiCampaignQuote } from '../campaign-views';

/** POST /v1/campaigns/quote: what the campaign would reach and cost, with 5 samples; nothing held. */
export class CampaignQuote extends Query<ApiCampaignQuote> {
  constructor(
    readonly sender: WalletContext,
    readonly input: CampaignInput,
  ) {
    super();
  }
}

/** A campaign with its counts by status and by carrier; 404 for another wallet's. */
export class CampaignById extends Query<ApiCampaign> {
  constructor(
    readonly walletId: string,
    readonly campaignId: string,
  ) {
    super();
  }
}

/** The wallet's campaigns, newest first. */
export class CampaignsPage extends Query<ListPage<ApiCampaign>> {
  constructor(
    readonly walletId: string,
    readonly limit: number,
    readonly startingAfter?: string,
  ) {
    super();
  }
}

/**
 * The campaign's report as CSV text, one row per message, produced a chunk of the list at a time
 * as it is read (memory does not grow with the campaign).
 */
export class CampaignReport extends Query<AsyncIterable<string>> {
  constructor(
    readonly sender: WalletContext,
    readonly campaignId: string,
  ) {
    super();
  }
}
