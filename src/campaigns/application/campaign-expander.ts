import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  CancelScheduledMessages,
  QueueCampaignMessages,
  ReleaseCampaignHold,
} from '../../messaging/application/commands/campaign-sends.commands';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { CLOCK, Clock } from '../../shared/clock';
import { fold } from '../../shared/decider';
import { ConcurrencyError, StoreUnavailableError } from '../../shared/event-store/event-store.port';
import { ProjectionsService } from '../../shared/projections/projections.service';
import type { Loaded } from '../../shared/event-store/aggregate-store';
import { InstanceIdentity } from '../../shared/instances/instance-identity';
import { CAMPAIGNS_OPTIONS, CampaignsOptions } from '../campaigns.options';
import { campaignMessageId } from '../../messaging/domain/campaign-message-ids';
import {
  Campaign,
  campaignDecider,
  finishCancel,
  queueChunk,
  takeCampaign,
} from '../domain/campaign.decider';
import { campaignStream, CampaignCreatedData, CHUNK_SIZE } from '../domain/campaign.events';
import { messageFor, placeOf } from '../domain/recipient-plan';
import { CampaignStore } from './campaign-store';
import type { WalletContext } from './campaign-lists';

const senderOf = (c: CampaignCreatedData): WalletContext => ({
  mode: 'wallet',
  walletId: c.walletId,
  accountId: c.accountId,
  environment: c.environment,
});

/**
 * How many chunks the expansion may be ahead of the read models. One was the limit while each
 * read model behind the log's recent events read it by itself; since they read it together
 * (LogBlocks), a campaign of 100,000 sent now was written in 12.7 s with 8 ahead against 20.8-21.1
 * s with one, with a third less CPU and the same peak RSS (docs/performance.md).
 */
const CHUNKS_AHEAD = 8;

/** How many recipients the list's `chunk` holds: CHUNK_SIZE, the last one fewer. */
const rowsIn = (c: CampaignCreatedData, chunk: number) =>
  Math.min(CHUNK_SIZE, c.recipients - chunk * CHUNK_SIZE);

/**
 * Does a campaign's work for the thread that holds it (the HTTP thread that accepted it, or the
 * worker thread of whichever process took it over): writes its list as messages a chunk at a
 * time, each chunk one write through messaging (reservations from the hold, the messages, and the
 * campaign's CampaignChunkQueued at its stream's revision), so a chunk is written once whoever
 * tries; or, once canceled, cancels its SCHEDULED messages and gives back what is left of the
 * hold. Memory: one chunk.
 *
 * The holder is a thread of a process (`<instance>/<thread role>`): a campaign accepted by the
 * HTTP thread is written there, beside the worker thread's read models, and that worker thread
 * leaves it alone while the lease lives; a process found dead is taken over at once.
 */
@Injectable()
export class CampaignExpander implements OnApplicationShutdown {
  private readonly logger = new Logger('campaigns');
  /** This thread's name as a campaign's holder. */
  readonly holder: string;
  /** Campaigns this thread works on now: asked again meanwhile, it does not start twice. */
  private readonly running = new Set<string>();
  private stopping = false;
  private readModels: string[] | null = null;

  constructor(
    private readonly store: CampaignStore,
    private readonly commands: CommandBus,
    private readonly projections: ProjectionsService,
    instance: InstanceIdentity,
    @Inject(CAMPAIGNS_OPTIONS) private readonly options: CampaignsOptions,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.holder = `${instance.id}/${config.threadRole}`;
  }

  /** The process a holder names (what its heartbeat is looked up by). */
  static instanceOf(holder: string): string {
    return holder.split('/')[0];
  }

  onApplicationShutdown(): void {
    this.stopping = true; // the work in progress stops between chunks; the next holder resumes it
  }

  /**
   * Writes the rest of a campaign this thread holds, after the request that accepted it answered;
   * a failure is logged and left to the worker (when the lease runs out) or another process.
   */
  continueLater(campaignId: string): void {
    void this.expand(campaignId).catch((error: unknown) =>
      this.logger.warn(`campaign ${campaignId} stopped, to be resumed: ${(error as Error).message}`),
    );
  }

  private async once<T>(campaignId: string, work: () => Promise<T>): Promise<T | null> {
    if (this.running.has(campaignId)) return null;
    this.running.add(campaignId);
    try {
      return await work();
    } finally {
      this.running.delete(campaignId);
    }
  }

  /**
   * Writes up to `maxChunks` chunks (all that are left by default) while this process holds the
   * campaign. `resumed`: another process may have written part of the next chunk before it died.
   * `stopped` is asked between chunks. Answers the log position of the last chunk written.
   */
  expand(
    campaignId: string,
    options: { maxChunks?: number; resumed?: boolean; stopped?: () => boolean } = {},
  ): Promise<bigint | null> {
    return this.once(campaignId, () => this.expandHeld(campaignId, options));
  }

  private async expandHeld(
    campaignId: string,
    options: { maxChunks?: number; resumed?: boolean; stopped?: () => boolean },
  ): Promise<bigint | null> {
    let loaded = await this.store.load(campaignId);
    let resumed = options.resumed ?? false;
    let position: bigint | null = null;
    // The read models may be a few chunks behind while the next is written (both threads busy), no
    // more: the positions of the last CHUNKS_AHEAD chunks written, oldest first.
    const written: (bigint | null)[] = [];
    for (let n = 0; n < (options.maxChunks ?? Infinity); n++) {
      const { state } = loaded;
      if (!state.created || state.expandedAt !== null || state.canceledAt !== null) break;
      const awaited = written.length === CHUNKS_AHEAD ? written[0] : null;
      if (!(await this.caughtUpWith(awaited, options.stopped))) return position;
      if (state.holder !== this.holder || this.stopping || options.stopped?.()) return position;
      const next = await this.queueNext(loaded, resumed);
      if (next === null) return position;
      loaded = next.loaded;
      position = next.position ?? position;
      written.push(position);
      if (written.length > CHUNKS_AHEAD) written.shift();
      resumed = false;
    }
    const { state } = loaded;
    if (state.created && state.expandedAt !== null) {
      // Every message took its part of the hold: nothing is left, unless a message was written
      // before by a process that died and was not reserved again (resumed chunks).
      await this.commands.execute(
        new ReleaseCampaignHold(
          state.created.walletId,
          campaignId,
          'the campaign’s messages were all written',
        ),
      );
    }
    return position;
  }

  /**
   * Waits for the read models to have applied the chunk written CHUNKS_AHEAD chunks ago before
   * the next one is written: a campaign's 200,000 events written much faster than they are read
   * would leave the read models ever further behind, the rows for them piling up in memory and a
   * read that waits on them timing out. The process managers are not
   * waited for: sending the messages goes at the carriers' pace, and a campaign sent now must not
   * be accepted only as fast as it is delivered. False when stopping.
   */
  private async caughtUpWith(position: bigint | null, stopped?: () => boolean): Promise<boolean> {
    this.readModels ??= this.projections
      .projections()
      .filter((p) => p.kind !== 'process-manager')
      .map((p) => p.name);
    for (;;) {
      if (this.stopping || stopped?.()) return false;
      try {
        await this.projections.waitFor(position, this.readModels);
        return true;
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) throw error; // a long wait is no failure
      }
    }
  }

  /** The next chunk, written; null when this process no longer holds the campaign. */
  private async queueNext(
    loaded: Loaded<Campaign>,
    resumed: boolean,
  ): Promise<{ loaded: Loaded<Campaign>; position: bigint | null } | null> {
    for (let attempt = 1; ; attempt++) {
      const { state, revision } = loaded;
      const created = state.created as CampaignCreatedData;
      const chunk = state.chunksQueued;
      const rows = await this.store.listChunk(created.listStream, chunk);
      if (rows === null)
        throw new Error(`campaign ${created.campaignId}: chunk ${chunk} of its list is missing`);
      const progress = queueChunk(state, {
        instance: this.holder,
        chunk,
        messages: rows.length,
        now: this.clock.now(),
        leaseMs: this.options.leaseMs,
      });
      if (!progress.ok) return null;
      const messages = rows.map((row, i) => messageFor(created, row, placeOf(chunk, i)));
      try {
        const position = await this.commands.execute(
          new QueueCampaignMessages(
            senderOf(created),
            created.campaignId,
            messages,
            [{ streamId: campaignStream(created.campaignId), events: progress.value, expected: revision }],
            resumed,
          ),
        );
        const next = fold(campaignDecider, progress.value, state);
        return { loaded: { state: next, revision: revision + BigInt(progress.value.length) }, position };
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= 10) throw error;
        // Another writer got there first (a renewal, a cancel, a second thread): decide again on
        // what the log says now. A message of the chunk may exist already: leave it alone.
        loaded = await this.store.load(created.campaignId);
        const fresh = loaded.state;
        if (fresh.holder !== this.holder || fresh.canceledAt !== null || fresh.expandedAt !== null)
          return null;
        if (fresh.chunksQueued !== chunk) return { loaded, position: null }; // written by another thread of this process
        resumed = true;
      }
    }
  }

  /**
   * Cancels the SCHEDULED messages of a canceled campaign that this process holds, chunk by chunk
   * (each cancel is at the message's revision and releases its credits once), renews its lease as
   * it goes, then gives back what is left of the hold and records the end. Messages exist only for
   * the chunks written, and for the one being written when the cancel came.
   */
  async finishCancel(campaignId: string, stopped?: () => boolean): Promise<bigint | null> {
    return this.once(campaignId, () => this.cancelHeld(campaignId, stopped));
  }

  private async cancelHeld(campaignId: string, stopped?: () => boolean): Promise<bigint | null> {
    const { state } = await this.store.load(campaignId);
    const created = state.created;
    if (!created || state.canceledAt === null || state.cancelFinishedAt !== null) return null;
    if (state.holder !== this.holder) return null;
    const scope = { walletId: created.walletId, environment: created.environment };
    const upTo = Math.min(created.chunks, state.chunksQueued + 1);
    let position: bigint | null = null;
    for (let chunk = 0; chunk < upTo; chunk++) {
      if (this.stopping || stopped?.()) return position;
      const ids = Array.from({ length: rowsIn(created, chunk) }, (_, i) =>
        campaignMessageId(campaignId, placeOf(chunk, i)),
      );
      const done = await this.commands.execute(new CancelScheduledMessages(scope, ids));
      if (done.position !== null) position = done.position;
      if (!(await this.renew(campaignId))) return position;
    }
    await this.commands.execute(
      new ReleaseCampaignHold(created.walletId, campaignId, 'the campaign was canceled'),
    );
    const finished = await this.store.handle(campaignId, (s) =>
      finishCancel(s, { instance: this.holder, now: this.clock.now() }),
    );
    if (!finished.ok) this.logger.warn(`campaign ${campaignId}: its cancel was taken over`);
    return finished.ok ? (finished.value.position ?? position) : position;
  }

  /** Renews this process's lease on the campaign; false when another process holds it now. */
  private async renew(campaignId: string): Promise<boolean> {
    const renewed = await this.store.handle(campaignId, (s) =>
      takeCampaign(s, {
        instance: this.holder,
        now: this.clock.now(),
        leaseMs: this.options.leaseMs,
        holderDead: false,
      }),
    );
    return renewed.ok && renewed.value.state.holder === this.holder;
  }
}
