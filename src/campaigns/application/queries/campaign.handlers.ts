import { IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { MessagesByIds } from '../../../messaging/application/queries/messages-by-ids.query';
import { ListPage, page } from '../../../shared/http/pagination';
import { campaignMessageId } from '../../../messaging/domain/campaign-message-ids';
import { REPORT_HEADER, reportRow } from '../../domain/campaign-report';
import { placeOf } from '../../domain/recipient-plan';
import { CampaignLauncher } from '../campaign-launcher';
import type { WalletContext } from '../campaign-lists';
import { CampaignReader } from '../campaign-reader';
import { CampaignStore } from '../campaign-store';
import type { ApiCampaign, ApiCampaignQuote } from '../campaign-views';
import { CampaignById, CampaignQuote, CampaignReport, CampaignsPage } from './campaign.queries';

@QueryHandler(CampaignQuote)
export class CampaignQuoteHandler implements IQueryHandler<CampaignQuote, ApiCampaignQuote> {
  constructor(private readonly campaigns: CampaignLauncher) {}

  execute({ sender, input }: CampaignQuote): Promise<ApiCampaignQuote> {
    return this.campaigns.quote(input, sender);
  }
}

@QueryHandler(CampaignById)
export class CampaignByIdHandler implements IQueryHandler<CampaignById, ApiCampaign> {
  constructor(private readonly reader: CampaignReader) {}

  execute({ walletId, campaignId }: CampaignById): Promise<ApiCampaign> {
    return this.reader.view(walletId, campaignId);
  }
}

@QueryHandler(CampaignsPage)
export class CampaignsPageHandler implements IQueryHandler<CampaignsPage, ListPage<ApiCampaign>> {
  constructor(private readonly reader: CampaignReader) {}

  async execute({ walletId, limit, startingAfter }: CampaignsPage): Promise<ListPage<ApiCampaign>> {
    return page(await this.reader.page(walletId, limit, startingAfter), limit);
  }
}

@QueryHandler(CampaignReport)
export class CampaignReportHandler implements IQueryHandler<CampaignReport, AsyncIterable<string>> {
  constructor(
    private readonly reader: CampaignReader,
    private readonly store: CampaignStore,
    private readonly queries: QueryBus,
  ) {}

  async execute({ sender, campaignId }: CampaignReport): Promise<AsyncIterable<string>> {
    const doc = await this.reader.doc(sender.walletId, campaignId); // 404 before the first byte
    return this.rows(sender, doc);
  }

  private async *rows(sender: WalletContext, doc: { id: string; listStream: string; chunks: number }) {
    yield `${REPORT_HEADER}\r\n`;
    const scope = { walletId: sender.walletId, environment: sender.environment };
    for await (const { chunk, rows } of this.store.chunks(doc.listStream, doc.chunks)) {
      const ids = rows.map((_, i) => campaignMessageId(doc.id, placeOf(chunk, i)));
      const messages = await this.queries.execute(new MessagesByIds(scope, ids));
      let text = '';
      messages.forEach((message, i) => {
        if (message) text += reportRow(message, rows[i][1]);
      });
      if (text) yield text;
    }
  }
}
