import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { CheckoutsService } from './checkouts.service';

/**
 * Records CheckoutExpired for unpaid checkouts past their time, every so often. Reads already
 * show them expired (computed lazily); this makes it part of the record. Runs only where
 * process managers run (not in the operator CLI).
 */
@Injectable()
export class CheckoutExpirySweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('checkout-expiry');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly checkouts: CheckoutsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.runProcessManagers) return;
    const every = Math.min(60_000, Math.max(200, Math.floor(this.config.checkoutTtlMs / 2)));
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.checkouts
        .sweepExpired()
        .catch((error) => this.logger.warn(`sweep failed, retried next round: ${String(error)}`))
        .finally(() => (this.running = null));
    }, every);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
