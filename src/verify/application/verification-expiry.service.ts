import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig, runsProcessManagersHere } from '../../config/app-config';
import { CLOCK, Clock } from '../../shared/clock';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import { NextDue, PollingLoop } from '../../shared/polling-loop';
import { ReadModelChanges } from '../../shared/projections/read-model-changes';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import { expire, verificationDecider } from '../domain/verification.decider';
import { verificationStream } from '../domain/verification.events';
import { OPEN_PARTITION, VERIFICATION_OPEN } from '../projections/verifications.projection';
import { VERIFY_OPTIONS, VerifyOptions } from '../verify.options';

/**
 * The expiry process: records VerificationExpired for pending verifications past their expiry,
 * soonest first (so `verification.expired` goes out). Reads already answer `expired` from the
 * clock before this runs; it only makes the fact part of the record. Each is decided at the
 * stream's revision, so several processes (or a check at the same moment) record it once.
 */
@Injectable()
export class VerificationExpiry implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('verify-expiry');
  private loop: PollingLoop | null = null;

  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly aggregates: AggregateStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(VERIFY_OPTIONS) private readonly options: VerifyOptions,
    private readonly changes: ReadModelChanges,
  ) {}

  onApplicationBootstrap(): void {
    if (!runsProcessManagersHere(this.config)) return;
    // Rests until the soonest open verification's expiry, or until a new one is listed.
    this.loop = new PollingLoop(
      this.options.expirySweepMs,
      async () => (await this.sweep()).nextDue,
      (error) => this.logger.error('expiring verifications failed', error.stack),
      {
        restMs: this.config.idlePollMs,
        wakeOn: (wake) => this.changes.on([VERIFICATION_OPEN], wake),
      },
    );
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop?.stop();
  }

  /** One pass over what is due now; answers how many it recorded expired. */
  async runOnce(now: Date = this.clock.now()): Promise<number> {
    return (await this.sweep(now)).expired;
  }

  /**
   * Records every verification past its expiry as expired, and answers when the next one falls
   * due: the soonest left open, none (null), or unknown while a full page was due (look again).
   */
  private async sweep(now: Date = this.clock.now()): Promise<{ expired: number; nextDue: NextDue }> {
    const limit = 200;
    const due = await this.reads.list<{ verificationId: string; expiresAt: string }>(VERIFICATION_OPEN, {
      partition: OPEN_PARTITION,
      order: 'asc',
      limit,
    });
    let expired = 0;
    for (const entry of due) {
      const expiresAt = Date.parse(entry.expiresAt);
      if (expiresAt > now.getTime()) return { expired, nextDue: expiresAt };
      const result = await this.aggregates.handle(
        verificationStream(entry.verificationId),
        verificationDecider,
        (s) => expire(s, now),
      );
      if (result.ok && result.value.events.length > 0) expired++;
    }
    return { expired, nextDue: due.length < limit ? null : undefined };
  }
}
