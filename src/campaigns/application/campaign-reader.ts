import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../shared/clock';
import { notFound } from '../../shared/domain-error';
import { isIdOf } from '../../shared/ids';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import { CampaignTally } from '../domain/campaign-counts';
import { campaignMissing } from '../domain/campaign.decider';
import { CAMPAIGNS, CampaignDoc, campaignSort } from '../projections/campaigns.projection';
import { CampaignStore } from './campaign-store';
import { ApiCampaign, createdView, toApiCampaign } from './campaign-views';

/**
 * Campaigns as the queries read them: the read model's document (counts and all), or, for a
 * campaign just accepted that the read model does not have yet, its creation in the log. Reads
 * never wait for the read model: a big campaign keeps it busy, and its counts may lag a moment.
 */
@Injectable()
export class CampaignReader {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly store: CampaignStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The campaign's document (the tally left as stored), or 404 for an unknown or another wallet's. */
  async doc(
    walletId: string,
    campaignId: string,
    param = 'id',
  ): Promise<Omit<CampaignDoc, 'tally'> & { tally?: unknown }> {
    if (!isIdOf('cmp', campaignId)) throw campaignMissing(param);
    const doc = await this.reads.get<CampaignDoc>(CAMPAIGNS, campaignId);
    if (doc) {
      if (doc.walletId !== walletId) throw campaignMissing(param);
      return doc;
    }
    const { state } = await this.store.load(campaignId);
    if (!state.created || state.created.walletId !== walletId) throw campaignMissing(param);
    return createdView(state.created);
  }

  async view(walletId: string, campaignId: string): Promise<ApiCampaign> {
    return toApiCampaign(await this.doc(walletId, campaignId), this.clock.now());
  }

  /** Each message's status by its place, as the read model has it (empty until it has the campaign). */
  async tally(walletId: string, campaignId: string): Promise<CampaignTally> {
    const doc = await this.doc(walletId, campaignId);
    return typeof doc.tally === 'string' ? CampaignTally.fromBase64(doc.tally) : CampaignTally.empty(0);
  }

  /** Newest first, after the campaign `startingAfter`; `limit + 1` documents say whether more exist. */
  async page(walletId: string, limit: number, startingAfter?: string): Promise<ApiCampaign[]> {
    let afterSort: string | undefined;
    if (startingAfter) {
      const cursor = await this.reads.get<CampaignDoc>(CAMPAIGNS, startingAfter);
      if (!cursor || cursor.walletId !== walletId) throw notFound('campaign', 'starting_after');
      afterSort = campaignSort(cursor.createdAt, cursor.id);
    }
    const docs = await this.reads.list<CampaignDoc>(CAMPAIGNS, {
      partition: walletId,
      order: 'desc',
      limit: limit + 1,
      afterSort,
    });
    const now = this.clock.now();
    return docs.map((doc) => toApiCampaign(doc, now));
  }
}
