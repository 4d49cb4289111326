import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Res,
  StreamableFile,
  UseGuards,
} from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBearerAuth,
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { ApiKeyGuard, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import { IdempotencyKeyHeader } from '../../messaging/http/idempotency-key.header';
import { walletContext } from '../../messaging/http/messages.http.controller';
import { ApiErrors } from '../../shared/http/api-errors.decorator';
import { CancelCampaign, CreateCampaign, RetryCampaign } from '../application/commands/campaign.commands';
import {
  CampaignById,
  CampaignQuote,
  CampaignReport,
  CampaignsPage,
} from '../application/queries/campaign.queries';
import {
  CampaignListResponse,
  CampaignQuoteResponse,
  CampaignResponse,
  CampaignsQueryDto,
  CarrierCountsResponse,
  CreateCampaignDto,
} from './campaigns.dto';

/** What a campaign body can be refused with before anything is held. */
const CAMPAIGN_REFUSALS = [
  'parameter_missing',
  'invalid_name',
  'invalid_sender_id',
  'invalid_type',
  'invalid_template',
  'invalid_message',
  'message_too_long',
  'invalid_send_at',
  'too_many_recipients',
];

const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  required: false,
  description:
    '1–255 printable characters; kept 24 h per wallet. A replay answers the same campaign with Idempotent-Replayed: true',
};

@ApiTags('campaigns')
@ApiBearerAuth()
@ApiExtraModels(CarrierCountsResponse)
@UseGuards(ApiKeyGuard)
@Controller('v1/campaigns')
export class CampaignsHttpController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Send one personalised message to each number of the audience (groups and contacts): every credit held at once or 402, sent now or at send_at',
  })
  @ApiHeader(IDEMPOTENCY_HEADER)
  @ApiOkResponse({ type: CampaignResponse })
  @ApiErrors(
    {
      400: [...CAMPAIGN_REFUSALS, 'no_recipients', 'invalid_idempotency_key'],
      402: ['insufficient_credit'],
      404: ['resource_missing (template_id, audience.groups[i], audience.contacts[i])'],
      409: ['idempotency_request_in_progress'],
      422: ['sender_id_not_approved', 'idempotency_key_reused'],
      429: ['rate_limited (a TEST wallet’s daily messages)'],
    },
    { body: true },
  )
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateCampaignDto,
    @IdempotencyKeyHeader() key: string | null,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { campaign, replayed } = await this.commands.execute(
      new CreateCampaign(walletContext(principal), body, key),
    );
    if (replayed) reply.header('Idempotent-Replayed', 'true');
    return campaign;
  }

  @Post('quote')
  @HttpCode(200)
  @ApiOperation({
    summary: 'What a campaign would reach and cost, with its first 5 personalised messages; nothing is held',
  })
  @ApiOkResponse({ type: CampaignQuoteResponse })
  @ApiErrors(
    {
      400: CAMPAIGN_REFUSALS,
      404: ['resource_missing (template_id, audience.groups[i], audience.contacts[i])'],
      422: ['sender_id_not_approved'],
    },
    { body: true },
  )
  quote(@CurrentPrincipal() principal: Principal, @Body() body: CreateCampaignDto) {
    return this.queries.execute(new CampaignQuote(walletContext(principal), body));
  }

  @Get()
  @ApiOperation({ summary: "The environment's campaigns, newest first" })
  @ApiOkResponse({ type: CampaignListResponse })
  @ApiErrors({ 400: ['invalid_limit'], 404: ['resource_missing (starting_after)'] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: CampaignsQueryDto) {
    return this.queries.execute(
      new CampaignsPage(principal.walletId, query.limit ?? 20, query.starting_after),
    );
  }

  @Get(':id')
  @ApiOperation({
    summary:
      'A campaign: its messages by status and by carrier, the credits spent; completed once every message is final',
  })
  @ApiOkResponse({ type: CampaignResponse })
  @ApiErrors({ 404: ['resource_missing'] })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.queries.execute(new CampaignById(principal.walletId, id));
  }

  @Get(':id/report.csv')
  @ApiProduces('text/csv')
  @ApiOperation({
    summary:
      'The campaign’s report: one row per message (message_id,to,name,status,carrier,segments,credits,error_code,created_at,final_at), streamed',
  })
  @ApiOkResponse({ description: 'text/csv' })
  @ApiErrors({ 404: ['resource_missing'] })
  async report(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    const rows = await this.queries.execute(new CampaignReport(walletContext(principal), id));
    return new StreamableFile(Readable.from(rows), {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="${id.replace(/[^A-Za-z0-9_]/g, '')}-report.csv"`,
    });
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Cancel a scheduled campaign before its send_at: its SCHEDULED messages become CANCELED and their credits are released once',
  })
  @ApiOkResponse({ type: CampaignResponse })
  @ApiErrors({ 404: ['resource_missing'], 409: ['campaign_not_cancelable'] })
  cancel(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.commands.execute(new CancelCampaign(walletContext(principal), id));
  }

  @Post(':id/retry')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'A new campaign to the recipients whose message ended FAILED or EXPIRED, with the same personalised texts; every credit held at once or 402',
  })
  @ApiHeader(IDEMPOTENCY_HEADER)
  @ApiOkResponse({ type: CampaignResponse })
  @ApiErrors({
    400: ['no_recipients'],
    402: ['insufficient_credit'],
    404: ['resource_missing'],
    409: ['nothing_to_retry', 'idempotency_request_in_progress'],
    422: ['sender_id_not_approved', 'idempotency_key_reused'],
  })
  async retry(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @IdempotencyKeyHeader() key: string | null,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { campaign, replayed } = await this.commands.execute(
      new RetryCampaign(walletContext(principal), id, key),
    );
    if (replayed) reply.header('Idempotent-Replayed', 'true');
    return campaign;
  }
}
