import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { AudiencePageView } from '../../audiences/application/audience-reader';
import { AudiencePage, TemplateById } from '../../audiences/application/queries/audience.queries';
import { parseTemplate } from '../../audiences/domain/template';
import { OptedOutNumbers } from '../../compliance/application/queries/opted-out-numbers.query';
import { SendConditions } from '../../messaging/application/queries/send-conditions.query';
import type { SendContext } from '../../messaging/application/send-pipeline.service';
import { Clock, CLOCK } from '../../shared/clock';
import { DomainError, invalid, notFound } from '../../shared/domain-error';
import { DomainErrorWithHeaders } from '../../shared/http/error-body';
import { CampaignInput, validateCampaignInput, ValidCampaign } from '../domain/campaign-input';
import { CHUNK_SIZE, MAX_RECIPIENTS, RecipientRow, Skipped } from '../domain/campaign.events';
import { CampaignPlan, Planned, planRecipient, RecipientTally } from '../domain/recipient-plan';
import { CampaignStore } from './campaign-store';

export type WalletContext = Extract<SendContext, { mode: 'wallet' }>;

/** A campaign body checked against the stores: what each recipient is planned with. */
export interface PreparedCampaign {
  readonly valid: ValidCampaign;
  /** The message as written: the body's own, or the template's. */
  readonly message: string;
  readonly plan: CampaignPlan;
}

export interface Sample {
  readonly to: string;
  readonly message: string;
  readonly segments: number;
}

/** What listing an audience found: counts, and the list's chunks when it was written. */
export interface ListedRecipients {
  readonly recipients: number;
  readonly credits: number;
  readonly skipped: Skipped;
  readonly chunks: number;
  readonly samples: readonly Sample[];
}

/** Members read per page of the audience (as many as a chunk of the list). */
const PAGE = CHUNK_SIZE;

const tooMany = () =>
  invalid(
    'too_many_recipients',
    `This audience reaches more than ${MAX_RECIPIENTS.toLocaleString('en-US')} recipients; a campaign reaches at most ${MAX_RECIPIENTS.toLocaleString('en-US')}`,
    'audience',
  );

/**
 * Writes a list of recipients a chunk at a time (memory: one chunk), or only counts them (a quote).
 * Rows come in the list's order; the chunk count and the samples say what was written.
 */
class ListWriter {
  readonly tally = new RecipientTally();
  readonly samples: Sample[] = [];
  private rows: RecipientRow[] = [];
  private chunk = 0;

  constructor(
    private readonly store: CampaignStore,
    private readonly listStream: string | null,
    private readonly sampleCount: number,
  ) {}

  async add(planned: Planned): Promise<void> {
    this.tally.add(planned);
    if ('skip' in planned) return;
    if (this.tally.recipients > MAX_RECIPIENTS) throw tooMany();
    const [to, , message, , , segments] = planned.send;
    if (this.samples.length < this.sampleCount) this.samples.push({ to, message, segments });
    if (this.listStream === null) return;
    this.rows.push(planned.send);
    if (this.rows.length === CHUNK_SIZE) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.listStream === null || this.rows.length === 0) return;
    await this.store.appendChunk(this.listStream, this.chunk++, this.rows);
    this.rows = [];
  }

  listed(duplicates: number): ListedRecipients {
    return {
      recipients: this.tally.recipients,
      credits: this.tally.credits,
      skipped: { ...this.tally.skipped, duplicate: duplicates },
      chunks: this.chunk,
      samples: this.samples,
    };
  }
}

/**
 * Lists a campaign's recipients in bounded memory: the audience a page at a time (audiences'
 * AudiencePage, in number order, each number once), each member planned by the pure rules
 * (planRecipient), the accepted ones written to the campaign's list in chunks of 1,000. The
 * quote runs the same listing without writing.
 */
@Injectable()
export class CampaignLists {
  /** Wallets listing an audience now, in this process: one listing at a time each. */
  private readonly listing = new Set<string>();

  constructor(
    private readonly queries: QueryBus,
    private readonly store: CampaignStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The 400s, 404s and the LIVE sender-ID 422, before anything is listed or held. */
  async prepare(input: CampaignInput, ctx: WalletContext): Promise<PreparedCampaign> {
    const checked = validateCampaignInput(input, this.clock.now());
    if (!checked.ok) throw checked.error;
    const valid = checked.value;
    const message =
      valid.templateId !== null
        ? await this.template(ctx.walletId, valid.templateId)
        : (valid.message as string);
    const template = parseTemplate(message, valid.templateId !== null ? 'template_id' : 'message');
    if (!template.ok) throw template.error;
    const conditions = await this.queries.execute(new SendConditions(ctx, valid.senderId));
    return {
      valid,
      message,
      plan: {
        senderId: valid.senderId,
        type: valid.type,
        template: template.value,
        routes: conditions.routes,
        carriers: new Set(conditions.carriers),
      },
    };
  }

  private async template(walletId: string, templateId: string): Promise<string> {
    try {
      return (await this.queries.execute(new TemplateById(walletId, templateId))).message;
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found')
        throw notFound('template', 'template_id');
      throw error;
    }
  }

  /**
   * Runs one listing of a wallet's audience at a time: a listing reads up to 100,000 contacts
   * (seconds of CPU) whatever its outcome, a quote or a refused campaign included, so a tenant
   * asking many at once gets `429` rather than the server's every core. The batch route's item
   * bucket is not taken from: a campaign's recipients are stored contacts and are paid for at once.
   */
  private async oneAtATime<T>(walletId: string, list: () => Promise<T>): Promise<T> {
    if (this.listing.has(walletId)) {
      throw new DomainErrorWithHeaders(
        new DomainError(
          'rate_limit',
          'rate_limited',
          'Another campaign or quote of this wallet is reading its audience now; retry in a moment',
        ),
        { 'retry-after': '1' },
      );
    }
    this.listing.add(walletId);
    try {
      return await list();
    } finally {
      this.listing.delete(walletId);
    }
  }

  /** The audience's recipients: counted, and written to `listStream` unless it is null. */
  fromAudience(
    walletId: string,
    prepared: PreparedCampaign,
    listStream: string | null,
    sampleCount: number,
  ): Promise<ListedRecipients> {
    return this.oneAtATime(walletId, () => this.listAudience(walletId, prepared, listStream, sampleCount));
  }

  private async listAudience(
    walletId: string,
    prepared: PreparedCampaign,
    listStream: string | null,
    sampleCount: number,
  ): Promise<ListedRecipients> {
    const writer = new ListWriter(this.store, listStream, sampleCount);
    const optOuts = prepared.plan.type === 'promotional';
    let after: string | null = null;
    let duplicates = 0;
    for (let first = true; first || after !== null; first = false) {
      const page: AudiencePageView = await this.queries.execute(
        new AudiencePage(walletId, prepared.valid.audience, after, PAGE, first, optOuts),
      );
      duplicates += page.duplicates;
      for (const member of page.members) await writer.add(planRecipient(member, prepared.plan));
      after = page.next;
    }
    await writer.flush();
    return writer.listed(duplicates);
  }

  /**
   * A retry's recipients: those of an earlier campaign's list at `places` (its FAILED and EXPIRED
   * messages), with the text they were sent, checked again where it may have changed since: the
   * opt-out list (promotional) and the carriers connected.
   */
  fromCampaign(
    walletId: string,
    earlier: { listStream: string; chunks: number },
    places: ReadonlySet<number>,
    plan: CampaignPlan,
    listStream: string | null,
  ): Promise<ListedRecipients> {
    return this.oneAtATime(walletId, () => this.listRetry(walletId, earlier, places, plan, listStream));
  }

  private async listRetry(
    walletId: string,
    earlier: { listStream: string; chunks: number },
    places: ReadonlySet<number>,
    plan: CampaignPlan,
    listStream: string | null,
  ): Promise<ListedRecipients> {
    const writer = new ListWriter(this.store, listStream, 0);
    for await (const { chunk, rows } of this.store.chunks(earlier.listStream, earlier.chunks)) {
      const picked = rows.filter((_, i) => places.has(chunk * CHUNK_SIZE + i));
      if (picked.length === 0) continue;
      const optedOut: ReadonlySet<string> =
        plan.type === 'promotional'
          ? await this.queries.execute(
              new OptedOutNumbers(
                walletId,
                picked.map((r) => r[0]),
              ),
            )
          : new Set();
      for (const row of picked) {
        if (optedOut.has(row[0])) await writer.add({ skip: 'opted_out' });
        else if (!plan.carriers.has(row[3])) await writer.add({ skip: 'unsendable' });
        else await writer.add({ send: row });
      }
    }
    await writer.flush();
    return writer.listed(0);
  }
}
