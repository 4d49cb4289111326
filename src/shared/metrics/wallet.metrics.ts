import { Injectable } from '@nestjs/common';
import { MetricsRegistry } from './metrics.registry';

export interface WalletQueueDepth {
  /** Commands waiting for their wallet's current batch to be recorded. */
  readonly commands: number;
  /** Wallets with a batch being decided or recorded, or commands waiting. */
  readonly wallets: number;
}

/** The per-wallet command queue of this process (WalletCommandQueue), read at every scrape. */
@Injectable()
export class WalletMetrics {
  constructor(private readonly metrics: MetricsRegistry) {}

  queueDepthFrom(sample: () => WalletQueueDepth): void {
    this.metrics.gaugeAtScrape(
      'sms_wallet_command_queue_depth',
      'Wallet commands (reserve, capture, release, credit) waiting in this process for their wallet.',
      [],
      async () => [{ value: sample().commands }],
    );
    this.metrics.gaugeAtScrape(
      'sms_wallet_command_queue_wallets',
      'Wallets with commands being recorded or waiting in this process.',
      [],
      async () => [{ value: sample().wallets }],
    );
  }
}
