import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig, eventStoreFile, readStoreFile } from '../../config/app-config';
import { WalCheckpointer } from './wal-checkpointer';

/**
 * With background threads on and the embedded stores in use, their WAL files are checkpointed by
 * a thread of their own (WalCheckpointer); the stores then open with wal_autocheckpoint off.
 */
@Injectable()
export class WalCheckpoints implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('wal-checkpoints');
  private checkpointer: WalCheckpointer | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  onApplicationBootstrap(): void {
    if (!this.config.backgroundThreads || this.config.threadRole === 'worker') return;
    const files = [
      ...(this.config.eventStoreUrl ? [] : [eventStoreFile(this.config)]),
      ...(this.config.mongodbUrl ? [] : [readStoreFile(this.config)]),
    ];
    if (files.length === 0) return;
    this.checkpointer = WalCheckpointer.start(files, (error) =>
      // The WAL files then only grow until the next restart; nothing is lost.
      this.logger.error('the WAL checkpoint thread stopped', (error as Error)?.stack),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.checkpointer?.stop();
    this.checkpointer = null;
  }
}
