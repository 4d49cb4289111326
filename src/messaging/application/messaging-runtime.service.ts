import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig, runsProcessManagersHere } from '../../config/app-config';
import { InstanceLiveness } from '../../shared/instances/instance-liveness.service';
import { NextDue, PollingLoop } from '../../shared/polling-loop';
import { ProjectionsService } from '../../shared/projections/projections.service';
import { ReadModelChanges } from '../../shared/projections/read-model-changes';
import { MESSAGING_OPTIONS, MessagingOptions } from '../messaging.options';
import { CARRIER_ROUTES, CarrierRoutes } from '../ports/carrier.port';
import { MESSAGES_PROJECTION } from '../projections/messages.projection';
import { OPEN_MESSAGES } from '../projections/open-messages';
import { UNQUEUED_RESERVATIONS_PROJECTION } from '../projections/open-reservations.projection';
import { DeliveryReceipts } from './delivery-receipts.service';
import { ExpirySweeper, OrphanReaper, TestCarrierResume } from './message-maintenance.service';
import { MessageDispatcher } from './message-dispatcher.service';

/**
 * Starts what acts on the world, only where process managers run (the server, not the CLI):
 * carriers with the receipt sink, the dispatcher, and the periodic sweeps. Stops them before
 * the stores close, waiting for submissions in flight.
 */
@Injectable()
export class MessagingRuntime implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('messaging');
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly loops: PollingLoop[] = [];
  private running = false;
  private readonly busy = new Set<string>();
  private readonly rerun = new Set<string>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
    @Inject(CARRIER_ROUTES) private readonly carriers: CarrierRoutes,
    private readonly receipts: DeliveryReceipts,
    private readonly dispatcher: MessageDispatcher,
    private readonly expiry: ExpirySweeper,
    private readonly reaper: OrphanReaper,
    private readonly resume: TestCarrierResume,
    private readonly projections: ProjectionsService,
    private readonly liveness: InstanceLiveness,
    private readonly changes: ReadModelChanges,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!runsProcessManagersHere(this.config)) return;
    this.running = true;
    for (const carrier of this.carriers.all()) {
      try {
        await carrier.start(this.receipts);
      } catch (error) {
        this.logger.error(`carrier ${carrier.name} did not start`, (error as Error)?.stack);
      }
    }
    // The heartbeat first: the dispatcher's first renewal already takes a dead instance's partitions.
    await this.liveness.start();
    await this.dispatcher.start();
    // Each sweep rests while nothing it reads is due, woken when its read model changes.
    this.every('expiry', this.options.expirySweepMs, async () => (await this.expiry.sweep()).next, [
      OPEN_MESSAGES,
    ]);
    this.every('orphans', this.options.orphanSweepMs, async () => {
      await this.reaper.runOnce();
    });
    // A dead instance's reservations are released at once: when it is found dead, and at start-up
    // (a predecessor that crashed), once the reservations' read model has caught up.
    this.liveness.onDeaths(() => void this.guarded('orphans', () => this.reaper.runOnce(), { again: true }));
    const reap = setTimeout(() => {
      void this.guarded('orphans', async () => {
        await this.projections.catchUp([UNQUEUED_RESERVATIONS_PROJECTION]);
        await this.reaper.runOnce();
      });
    }, 0);
    reap.unref?.();
    this.timers.push(reap);
    // First pass after the message read model caught up: receipts lost to a restart are re-scheduled.
    const first = setTimeout(() => {
      void this.guarded('test-resume', async () => {
        await this.projections.catchUp([MESSAGES_PROJECTION]);
        await this.resume.runOnce(0);
      });
    }, 0);
    first.unref?.();
    this.timers.push(first);
    this.every(
      'test-resume',
      this.options.testReconcileMs,
      async () => {
        const { open } = await this.resume.runOnce(Math.max(1000, this.config.testDlrDelayMs + 1000));
        return open === 0 ? null : undefined;
      },
      [OPEN_MESSAGES],
    );
  }

  async onModuleDestroy(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    for (const timer of this.timers) clearTimeout(timer);
    await Promise.all(this.loops.map((loop) => loop.stop()));
    // Submissions in flight end and the partitions are handed back; then this instance is
    // recorded as stopped, so nothing it made waits for its heartbeat to age.
    await this.dispatcher.stop();
    await this.liveness.stop({ clean: true });
    for (const carrier of this.carriers.all()) {
      try {
        await carrier.stop();
      } catch (error) {
        this.logger.error(`carrier ${carrier.name} did not stop cleanly`, (error as Error)?.stack);
      }
    }
    while (this.busy.size > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /**
   * Runs a sweep every `intervalMs` while it has work; one that answers when its work next falls
   * due (NextDue) rests until then, at most IDLE_POLL_MS, and `wakeOn` collections changing wake
   * it sooner (ReadModelChanges).
   */
  private every(
    name: string,
    intervalMs: number,
    task: () => Promise<NextDue>,
    wakeOn?: readonly string[],
  ): void {
    const loop = new PollingLoop(
      Math.max(50, intervalMs),
      () => this.guarded(name, task),
      (error) => this.logger.error(`${name} failed`, error?.stack),
      {
        restMs: this.config.idlePollMs,
        wakeOn: wakeOn && ((wake) => this.changes.on(wakeOn, wake)),
      },
    );
    loop.start();
    this.loops.push(loop);
  }

  /**
   * One run of a task at a time; a failure is logged and the next tick tries again. `again`: if
   * a run is under way, one more follows it (it may have looked before what calls for this one).
   * Answers the task's NextDue when it gives one (nothing otherwise: look again after the interval).
   */
  private async guarded(
    name: string,
    task: () => Promise<unknown>,
    { again = false }: { again?: boolean } = {},
  ): Promise<NextDue> {
    if (!this.running) return undefined;
    if (this.busy.has(name)) {
      if (again) this.rerun.add(name);
      return undefined;
    }
    this.busy.add(name);
    let next: NextDue = undefined;
    try {
      const answer = await task();
      next = answer === null || typeof answer === 'number' ? answer : undefined;
    } catch (error) {
      if (this.running) this.logger.error(`${name} failed`, (error as Error)?.stack);
    } finally {
      this.busy.delete(name);
    }
    if (this.rerun.delete(name)) return this.guarded(name, task);
    return next;
  }
}
