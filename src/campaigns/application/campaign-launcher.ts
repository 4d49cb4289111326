import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { HoldCampaignCredits } from '../../messaging/application/commands/campaign-sends.commands';
import { IdempotencyKeys, sha256 } from '../../messaging/application/idempotent-send.service';
import { CLOCK, Clock } from '../../shared/clock';
import { DomainError, invalid } from '../../shared/domain-error';
import { EVENT_STORE, EventStore } from '../../shared/event-store/event-store.port';
import { newId, randomToken } from '../../shared/ids';
import { ProjectionsService } from '../../shared/projections/projections.service';
import { WalletBalance } from '../../wallet/application/queries/wallet-balance.query';
import { CAMPAIGNS_OPTIONS, CampaignsOptions } from '../campaigns.options';
import type { CampaignInput } from '../domain/campaign-input';
import { CampaignCreatedData, campaignStream, recipientsStream } from '../domain/campaign.events';
import { cancelCampaign, isCampaignOf } from '../domain/campaign.decider';
import { CAMPAIGNS_PROJECTION } from '../projections/campaigns.projection';
import { CampaignExpander } from './campaign-expander';
import { CampaignLists, ListedRecipients, PreparedCampaign, WalletContext } from './campaign-lists';
import { CampaignReader } from './campaign-reader';
import { CampaignStore } from './campaign-store';
import { ApiCampaign, ApiCampaignQuote } from './campaign-views';

/** What a campaign is made of before it is held: its fields, and how its recipients are listed. */
interface Launch {
  readonly prepared: PreparedCampaign;
  readonly retryOf: string | null;
  /** Lists the recipients into `listStream` (or only counts them, with null). */
  readonly list: (listStream: string | null) => Promise<ListedRecipients>;
}

const noRecipients = (listed: ListedRecipients) => {
  const s = listed.skipped;
  return invalid(
    'no_recipients',
    `Nobody in this audience can be sent this campaign (opted out: ${s.opted_out}, missing a field: ${s.missing_field}, unsendable: ${s.unsendable})`,
    'audience',
  );
};

/** The request as far as its Idempotency-Key is concerned: every field exactly as sent. */
function campaignRequestHash(input: CampaignInput): string {
  const audience = (input.audience ?? null) as { groups?: unknown; contacts?: unknown } | null;
  return sha256(
    JSON.stringify([
      'campaign',
      input.name ?? null,
      input.sender_id ?? null,
      input.type ?? null,
      input.message ?? null,
      input.template_id ?? null,
      audience && typeof audience === 'object'
        ? [audience.groups ?? null, audience.contacts ?? null]
        : audience,
      input.send_at ?? null,
    ]),
  );
}

/**
 * POST /v1/campaigns and its retry: lists the recipients (in bounded memory, to the campaign's
 * list stream), holds every credit at once with the campaign's creation (one wallet decision, or
 * 402 and nothing), writes the first chunk of messages before answering and the rest right after
 * (this thread holds the campaign's lease; the worker resumes it if that stops). Under an
 * Idempotency-Key a campaign is made once, whatever repeats; a request that died before its hold
 * is run again.
 */
@Injectable()
export class CampaignLauncher {
  private readonly logger = new Logger('campaigns');

  constructor(
    private readonly lists: CampaignLists,
    private readonly store: CampaignStore,
    private readonly reader: CampaignReader,
    private readonly expander: CampaignExpander,
    private readonly keys: IdempotencyKeys,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly projections: ProjectionsService,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CAMPAIGNS_OPTIONS) private readonly options: CampaignsOptions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async quote(input: CampaignInput, ctx: WalletContext): Promise<ApiCampaignQuote> {
    const prepared = await this.lists.prepare(input, ctx);
    const listed = await this.lists.fromAudience(ctx.walletId, prepared, null, 5);
    const smsLeft = (await this.queries.execute(new WalletBalance(ctx.walletId)))?.smsLeft ?? 0;
    return {
      object: 'campaign_quote',
      recipients: listed.recipients,
      skipped: listed.skipped,
      segments: listed.credits,
      credits: listed.credits,
      sms_left: smsLeft,
      sendable: listed.recipients > 0 && listed.credits <= smsLeft,
      samples: listed.samples,
    };
  }

  async create(
    input: CampaignInput,
    ctx: WalletContext,
    key: string | null,
  ): Promise<{ campaign: ApiCampaign; replayed: boolean }> {
    let prepared: PreparedCampaign | null = null;
    const prepare = async () => (prepared ??= await this.lists.prepare(input, ctx));
    const launch = async (): Promise<Launch> => {
      const p = await prepare();
      return {
        prepared: p,
        retryOf: null,
        list: (listStream) => this.lists.fromAudience(ctx.walletId, p, listStream, 0),
      };
    };
    return this.once(ctx, key, campaignRequestHash(input), prepare, launch);
  }

  /** A new campaign to the recipients whose message ended FAILED or EXPIRED (API.md). */
  async retry(
    campaignId: string,
    ctx: WalletContext,
    key: string | null,
  ): Promise<{ campaign: ApiCampaign; replayed: boolean }> {
    let launch: Launch | null = null;
    const prepare = async (): Promise<Launch> => {
      if (launch) return launch;
      const earlier = await this.reader.doc(ctx.walletId, campaignId);
      const tally = await this.reader.tally(ctx.walletId, campaignId);
      const places = new Set(tally.placesIn(new Set(['FAILED', 'EXPIRED'] as const)));
      if (places.size === 0) {
        throw new DomainError(
          'conflict',
          'nothing_to_retry',
          'No message of this campaign ended FAILED or EXPIRED (yet): there is nobody to retry',
        );
      }
      const prepared = await this.lists.prepare(
        {
          name: earlier.name,
          sender_id: earlier.senderId,
          type: earlier.type,
          message: earlier.message,
          audience: earlier.audience,
        },
        ctx,
      );
      launch = {
        prepared,
        retryOf: campaignId,
        list: (listStream) =>
          this.lists.fromCampaign(ctx.walletId, earlier, places, prepared.plan, listStream),
      };
      return launch;
    };
    return this.once(ctx, key, sha256(JSON.stringify(['campaign-retry', campaignId])), prepare, prepare);
  }

  /**
   * Cancels a scheduled campaign: CampaignCanceled at the stream's revision (the expansion stops
   * at its next chunk), then its SCHEDULED messages canceled and the rest of its hold released,
   * here; the worker finishes it if this process stops first. Asked again, it answers the campaign.
   */
  async cancel(campaignId: string, ctx: WalletContext): Promise<ApiCampaign> {
    await this.reader.doc(ctx.walletId, campaignId); // 404 before anything is decided
    const canceled = await this.store.handle(campaignId, (state) =>
      cancelCampaign(state, {
        walletId: ctx.walletId,
        instance: this.expander.holder,
        now: this.clock.now(),
        leaseMs: this.options.leaseMs,
      }),
    );
    if (!canceled.ok) throw canceled.error;
    const position =
      canceled.value.events.length > 0
        ? await this.expander.finishCancel(campaignId)
        : canceled.value.position;
    await this.projections.waitFor(position ?? canceled.value.position, [CAMPAIGNS_PROJECTION]);
    return this.reader.view(ctx.walletId, campaignId);
  }

  private async once(
    ctx: WalletContext,
    key: string | null,
    requestHash: string,
    check: () => Promise<unknown>,
    launch: () => Promise<Launch>,
  ): Promise<{ campaign: ApiCampaign; replayed: boolean }> {
    if (key === null) {
      await check();
      return { campaign: await this.launch(newId('cmp'), ctx, await launch(), null), replayed: false };
    }
    const { answer, replayed } = await this.keys.run(key, ctx.walletId, requestHash, {
      check: async () => void (await check()),
      newClaim: () => ({ campaignId: newId('cmp') }),
      run: async (campaignId) => ({
        answer: await this.launch(campaignId, ctx, await launch(), key),
        replayed: false,
      }),
      recorded: (campaignId) => this.recorded(campaignId, ctx),
      started: async (campaignId) =>
        (await this.events.readStream(campaignStream(campaignId), { limit: 1 })).length > 0,
    });
    return { campaign: answer, replayed };
  }

  private async recorded(campaignId: string, ctx: WalletContext): Promise<ApiCampaign | null> {
    const { state } = await this.store.load(campaignId);
    return isCampaignOf(state, ctx.walletId) ? this.reader.view(ctx.walletId, campaignId) : null;
  }

  private async launch(
    campaignId: string,
    ctx: WalletContext,
    launch: Launch,
    key: string | null,
  ): Promise<ApiCampaign> {
    // A run that died while listing left a list nobody names: this one lists afresh.
    const listStream = recipientsStream(campaignId, randomToken(8));
    const listed = await launch.list(listStream);
    if (listed.recipients === 0) throw noRecipients(listed);
    const { valid, message } = launch.prepared;
    const now = this.clock.now();
    const data: CampaignCreatedData = {
      campaignId,
      walletId: ctx.walletId,
      accountId: ctx.accountId,
      environment: ctx.environment,
      name: valid.name,
      senderId: valid.senderId,
      type: valid.type,
      message,
      templateId: valid.templateId,
      audience: valid.audience,
      sendAt: valid.sendAt,
      recipients: listed.recipients,
      skipped: listed.skipped,
      credits: listed.credits,
      chunks: listed.chunks,
      listStream,
      idempotencyKey: key,
      retryOf: launch.retryOf,
      createdAt: now.toISOString(),
      instance: this.expander.holder,
      leaseUntil: new Date(now.getTime() + this.options.leaseMs).toISOString(),
    };
    let position = await this.commands.execute(
      new HoldCampaignCredits(ctx, campaignId, listed.credits, listed.recipients, [
        {
          streamId: campaignStream(campaignId),
          events: [{ type: 'CampaignCreated', data }],
          expected: 'no_stream',
        },
      ]),
    );
    // The first chunk is written before the answer (a small campaign entirely): its messages are
    // listed at once. This thread writes the rest after answering; a failure is the worker's to
    // resume (when the lease runs out, or at once in another process if this one dies). Either
    // way the campaign is accepted already.
    try {
      position = (await this.expander.expand(campaignId, { maxChunks: 1 })) ?? position;
    } catch (error) {
      this.logger.warn(
        `campaign ${campaignId}: its first chunk is left to the worker: ${(error as Error).message}`,
      );
    }
    await this.projections.waitFor(position, [CAMPAIGNS_PROJECTION]);
    if (listed.chunks > 1) this.expander.continueLater(campaignId);
    return this.reader.view(ctx.walletId, campaignId);
  }
}
