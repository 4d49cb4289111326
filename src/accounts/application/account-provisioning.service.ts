import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../shared/clock';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import { WalletService } from '../../wallet/application/wallet.service';
import * as account from '../domain/account.decider';
import { accountStream, Registration } from '../domain/account.events';

/**
 * The steps after an email is claimed: the account stream, then both wallets. Sign-up runs them
 * inline and the provisioner process manager again from the log, so every step is idempotent.
 */
@Injectable()
export class AccountProvisioning {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly wallets: WalletService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async provision(registration: Registration): Promise<void> {
    const result = await this.aggregates.handle(
      accountStream(registration.accountId),
      account.accountDecider,
      (a) => account.register(a, { ...registration, now: this.clock.now() }),
    );
    if (!result.ok) throw result.error;
    for (const [walletId, environment] of [
      [registration.testWalletId, 'TEST'],
      [registration.liveWalletId, 'LIVE'],
    ] as const) {
      const opened = await this.wallets.open(walletId, registration.accountId, environment);
      if (!opened.ok) throw opened.error;
    }
  }
}
