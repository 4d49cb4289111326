import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig, runsProcessManagersHere } from '../../config/app-config';
import { CLOCK, Clock } from '../../shared/clock';
import { InstanceLiveness } from '../../shared/instances/instance-liveness.service';
import { NextDue, PollingLoop } from '../../shared/polling-loop';
import { ReadModelChanges } from '../../shared/projections/read-model-changes';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import { CAMPAIGNS_OPTIONS, CampaignsOptions } from '../campaigns.options';
import { takeCampaign } from '../domain/campaign.decider';
import { CAMPAIGN_WORK, WORK_PARTITION } from '../projections/campaigns.projection';
import { CampaignExpander } from './campaign-expander';
import { CampaignStore } from './campaign-store';

/**
 * The campaign worker. It runs where the process managers run, finds campaigns with work left in
 * the `campaign-work` read model, and takes each with CampaignTaken at the campaign stream's
 * revision (a lease of CAMPAIGN_LEASE_MS; a holder whose heartbeat stopped is taken over at once),
 * so two processes on one store never both expand one campaign. A campaign accepted here is held
 * by this process already and simply continued; one whose process was killed (SIGKILL) is resumed
 * at its first chunk not recorded, from the log alone, by whichever process takes it.
 */
@Injectable()
export class CampaignWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('campaigns');
  private readonly loop: PollingLoop;
  private stopped = true;

  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly store: CampaignStore,
    private readonly expander: CampaignExpander,
    private readonly liveness: InstanceLiveness,
    @Inject(CAMPAIGNS_OPTIONS) private readonly options: CampaignsOptions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    changes: ReadModelChanges,
  ) {
    // Rests while no campaign has work left; a new one (listed by the read model) wakes it.
    this.loop = new PollingLoop(
      options.pollMs,
      () => this.tick(),
      (error) => this.logger.warn(`campaign tick failed: ${error.message}`),
      { restMs: config.idlePollMs, wakeOn: (wake) => changes.on([CAMPAIGN_WORK], wake) },
    );
  }

  onApplicationBootstrap(): void {
    if (!runsProcessManagersHere(this.config)) return;
    this.stopped = false;
    this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.loop.stop();
  }

  /**
   * Works on the campaigns waiting, oldest first, one after the other; with none the loop may rest
   * (null), else it looks again after its interval (one may be held by another thread or process
   * whose lease runs out). Exposed for tests.
   */
  async tick(): Promise<NextDue> {
    const waiting = await this.reads.list<{ id: string }>(CAMPAIGN_WORK, {
      partition: WORK_PARTITION,
      order: 'asc',
      limit: 20,
    });
    if (waiting.length === 0) return null;
    for (const { id } of waiting) {
      if (this.stopped) return;
      // One campaign's trouble must not hold up the others: it is tried again at the next tick.
      await this.run(id).catch((error: unknown) =>
        this.logger.warn(`campaign ${id} stopped, to be resumed: ${(error as Error).message}`),
      );
    }
  }

  private async run(campaignId: string): Promise<void> {
    const before = (await this.store.load(campaignId)).state.holder;
    const me = this.expander.holder;
    const taken = await this.store.handle(campaignId, (state) =>
      takeCampaign(state, {
        instance: me,
        now: this.clock.now(),
        leaseMs: this.options.leaseMs,
        holderDead: state.holder !== null && this.liveness.isDead(CampaignExpander.instanceOf(state.holder)),
      }),
    );
    if (!taken.ok || taken.value.state.holder !== me) return;
    const stopped = () => this.stopped;
    if (taken.value.state.canceledAt !== null) {
      await this.expander.finishCancel(campaignId, stopped);
      return;
    }
    // Taken over from another process: the chunk it was writing may be written in part.
    await this.expander.expand(campaignId, { resumed: before !== me, stopped });
  }
}
