import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig, runsProcessManagersHere } from '../../config/app-config';
import { CLOCK, Clock } from '../../shared/clock';
import { InstanceLiveness } from '../../shared/instances/instance-liveness.service';
import { QueuedWorkLoop } from '../../shared/queued-work-loop';
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
  private readonly queue: QueuedWorkLoop;

  constructor(
    @Inject(READ_STORE) reads: ReadStore,
    private readonly store: CampaignStore,
    private readonly expander: CampaignExpander,
    private readonly liveness: InstanceLiveness,
    @Inject(CAMPAIGNS_OPTIONS) private readonly options: CampaignsOptions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    changes: ReadModelChanges,
  ) {
    // Rests while no campaign has work left; a new one (listed by the read model) wakes it.
    this.queue = new QueuedWorkLoop(
      {
        noun: 'campaign',
        collection: CAMPAIGN_WORK,
        partition: WORK_PARTITION,
        pollMs: options.pollMs,
        restMs: config.idlePollMs,
        run: (id, stopped) => this.run(id, stopped),
      },
      reads,
      changes,
      this.logger,
    );
  }

  onApplicationBootstrap(): void {
    if (runsProcessManagersHere(this.config)) this.queue.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.stop();
  }

  private async run(campaignId: string, stopped: () => boolean): Promise<void> {
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
    if (taken.value.state.canceledAt !== null) {
      await this.expander.finishCancel(campaignId, stopped);
      return;
    }
    // Taken over from another process: the chunk it was writing may be written in part.
    await this.expander.expand(campaignId, { resumed: before !== me, stopped });
  }
}
