import { Body, Get, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { GroupsList, TemplatesList } from '../../audiences/application/queries/audience.queries';
import {
  CancelCampaign,
  CreateCampaign,
  RetryCampaign,
} from '../../campaigns/application/commands/campaign.commands';
import {
  CampaignById,
  CampaignQuote,
  CampaignReport,
  CampaignsPage,
} from '../../campaigns/application/queries/campaign.queries';
import type { ApiCampaign } from '../../campaigns/application/campaign-views';
import type { CampaignInput } from '../../campaigns/domain/campaign-input';
import { DomainError } from '../../shared/domain-error';
import { carrierOutcomesChart } from './activity-charts';
import { signedIn } from './console-auth';
import { CampaignActionForm, CampaignForm } from './console-audience-campaigns.forms';
import { ConsoleRequest, field, rawField, walletSmsLeft } from './console-http';
import { ConsolePage, ConsolePages, FormRefusal, Requires } from './console-page';
import { formSendAt, REFRESH_SECONDS, sendAtFromForm } from './outcome-refresh';

/** The prefix of the Idempotency-Key a campaign's Send carries (the preview's one-time token follows). */
const CONSOLE_CAMPAIGN_KEY = 'console-campaign-';
const CAMPAIGNS_SHOWN = 50;
const GROUPS_OFFERED = 100;
const TEMPLATES_OFFERED = 100;

/** The form as typed: shown again after a refusal, carried from the preview to the Send. */
interface TypedCampaign {
  readonly name: string;
  readonly sender_id: string;
  readonly type: string;
  readonly groups: readonly string[];
  readonly message: string;
  readonly template_id: string;
  /** The "Send at" field as typed (Ghana time); empty to send now. */
  readonly send_at: string;
}

function typed(body: unknown): TypedCampaign {
  const groups = (body as { groups?: unknown } | null)?.groups;
  return {
    name: field(body, 'name'),
    sender_id: field(body, 'sender_id'),
    type: field(body, 'type') || 'transactional',
    groups: (Array.isArray(groups) ? groups : groups === undefined || groups === '' ? [] : [groups]).map(
      String,
    ),
    message: rawField(body, 'message'),
    template_id: field(body, 'template_id'),
    send_at: field(body, 'send_at'),
  };
}

/** The API's campaign body the form makes: a template when one is chosen, else the message. */
function campaignInput(form: TypedCampaign): CampaignInput {
  const sendAt = sendAtFromForm(form.send_at);
  return {
    name: form.name,
    sender_id: form.sender_id,
    type: form.type,
    ...(form.template_id ? { template_id: form.template_id } : { message: form.message }),
    audience: { groups: form.groups },
    ...(sendAt === undefined ? {} : { send_at: sendAt }),
  };
}

const FINAL_STATUSES = ['DELIVERED', 'FAILED', 'EXPIRED', 'CANCELED'] as const;
const finalOf = (c: ApiCampaign) => FINAL_STATUSES.reduce((sum, s) => sum + c.counts[s], 0);

/**
 * Campaigns (API.md, "Campaigns to audiences"): a list, a new campaign (groups, a message or a
 * saved template, a time) through a preview of its cost and first personalised messages before
 * anything is held, and each campaign's page: its counts, a chart by carrier, the CSV report, the
 * cancel of a scheduled one and the retry of its failed messages. Every action is the API's use
 * case through the same command.
 */
@ConsolePages()
export class ConsoleAudienceCampaignsController {
  constructor(
    private readonly page: ConsolePage,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('campaigns')
  async list(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    const { walletId } = signedIn(request);
    const listed = await this.queries.execute(new CampaignsPage(walletId, CAMPAIGNS_SHOWN));
    await this.page.render(request, reply, 'campaigns', {
      title: 'Campaigns',
      nav: 'campaigns',
      campaigns: listed.data.map((c) => ({ ...c, final: finalOf(c) })),
      more: listed.has_more,
    });
  }

  @Get('campaigns/new')
  @Requires('send')
  async newCampaign(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.renderForm(request, reply, null);
  }

  /** The preview: who gets what and what it costs, from the API's quote. Nothing is held. */
  @Post('campaigns/preview')
  @Requires('send')
  async preview(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: CampaignForm,
  ): Promise<void> {
    await this.renderPreview(request, reply, typed(body));
  }

  /** The preview's Send: the campaign, under the preview's one-time token as its Idempotency-Key. */
  @Post('campaigns')
  @Requires('send')
  async send(@Req() request: ConsoleRequest, @Res() reply: FastifyReply, @Body() body: CampaignForm) {
    const form = typed(body);
    const { sender } = signedIn(request);
    await this.page.submit(request, reply, body, {
      act: async (token) => {
        const { campaign } = await this.commands.execute(
          new CreateCampaign(sender, campaignInput(form), `${CONSOLE_CAMPAIGN_KEY}${token}`),
        );
        return `/console/campaigns/${encodeURIComponent(campaign.id)}`;
      },
      refused: (refusal) => this.renderPreview(request, reply, form, refusal),
      shows: ['invalid_request', 'insufficient_credit', 'unprocessable', 'rate_limit'],
      alreadySent:
        'This campaign was already sent once from this preview, so it was not sent again. See Campaigns for it.',
    });
  }

  @Get('campaigns/:id')
  async campaign(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
  ): Promise<void> {
    const { walletId } = signedIn(request);
    const c = await this.page.found(() => this.queries.execute(new CampaignById(walletId, id)), 'campaign');
    const carriers = Object.entries(c.by_carrier).map(([carrier, counts]) => ({ carrier, ...counts }));
    const retryable = c.counts.FAILED + c.counts.EXPIRED;
    const live = c.status === 'sending';
    await this.page.render(request, reply, 'campaign', {
      title: c.name,
      nav: 'campaigns',
      campaign: c,
      final: finalOf(c),
      counts: Object.entries(c.counts).filter(([, n]) => n > 0),
      carriers,
      chart: carriers.length > 0 ? carrierOutcomesChart(carriers) : null,
      retryable,
      refreshSeconds: live ? REFRESH_SECONDS * 2 : null,
    });
  }

  /** The report as the API streams it, to download from the page (memory: one chunk at a time). */
  @Get('campaigns/:id/report.csv')
  async report(@Req() request: ConsoleRequest, @Res() reply: FastifyReply, @Param('id') id: string) {
    const { sender } = signedIn(request);
    const rows = await this.page.found(
      () => this.queries.execute(new CampaignReport(sender, id)),
      'campaign',
    );
    await reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${id.replace(/[^A-Za-z0-9_]/g, '')}-report.csv"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(rows));
  }

  @Post('campaigns/:id/cancel')
  @Requires('send')
  async cancel(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
    @Body() body: CampaignActionForm,
  ) {
    const { sender } = signedIn(request);
    await this.page.submit(request, reply, body, {
      once: `cancel-campaign-${id}`,
      act: async () => {
        await this.commands.execute(new CancelCampaign(sender, id));
        return `/console/campaigns/${encodeURIComponent(id)}`;
      },
    });
  }

  /** A new campaign to the recipients whose message ended FAILED or EXPIRED; its page next. */
  @Post('campaigns/:id/retry')
  @Requires('send')
  async retry(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
    @Body() body: CampaignActionForm,
  ) {
    const { sender } = signedIn(request);
    await this.page.submit(request, reply, body, {
      act: async (token) => {
        const { campaign } = await this.commands.execute(
          new RetryCampaign(sender, id, `${CONSOLE_CAMPAIGN_KEY}retry-${token}`),
        );
        return `/console/campaigns/${encodeURIComponent(campaign.id)}`;
      },
      alreadySent: 'These messages were already retried once from this page, so they were not sent again.',
    });
  }

  private async renderForm(
    request: ConsoleRequest,
    reply: FastifyReply,
    form: TypedCampaign | null,
    refusal?: FormRefusal,
  ): Promise<void> {
    const { walletId } = signedIn(request);
    const [groups, templates, smsLeft] = await Promise.all([
      this.queries.execute(new GroupsList(walletId, GROUPS_OFFERED)),
      this.queries.execute(new TemplatesList(walletId, TEMPLATES_OFFERED)),
      walletSmsLeft(this.queries, walletId),
    ]);
    await this.page.render(
      request,
      reply,
      'campaign-new',
      {
        title: 'New campaign',
        nav: 'campaigns',
        groups: groups.data,
        templates: templates.data,
        smsLeft,
        form: form ?? {
          name: '',
          sender_id: '',
          type: 'transactional',
          groups: [],
          message: '',
          template_id: '',
          send_at: '',
        },
        sendAtValue: formSendAt(sendAtFromForm(form?.send_at ?? '')),
        error: refusal ?? null,
      },
      refusal?.status,
    );
  }

  private async renderPreview(
    request: ConsoleRequest,
    reply: FastifyReply,
    form: TypedCampaign,
    sendRefusal?: FormRefusal,
  ): Promise<void> {
    const { sender } = signedIn(request);
    let quote;
    try {
      quote = await this.queries.execute(new CampaignQuote(sender, campaignInput(form)));
    } catch (error) {
      // A refusal of the campaign itself (a field, a group, the sender ID): back to the form.
      if (!(error instanceof DomainError) || error.kind === 'unavailable') throw error;
      return this.renderForm(request, reply, form, {
        status: 400,
        code: error.code,
        message: error.message,
        param: error.param ?? null,
      });
    }
    await this.page.render(
      request,
      reply,
      'campaign-preview',
      {
        title: 'Check before sending',
        nav: 'campaigns',
        form,
        quote,
        sendAt: sendAtFromForm(form.send_at) ?? null,
        skippedTotal:
          quote.skipped.opted_out +
          quote.skipped.missing_field +
          quote.skipped.duplicate +
          quote.skipped.unsendable,
        sendError: sendRefusal ?? null,
      },
      sendRefusal?.status,
    );
  }
}
