import { Inject, Injectable } from '@nestjs/common';
import { ProjectionsService } from '../../shared/projections/projections.service';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import {
  WALLETS,
  WalletBalanceView,
  walletBalanceProjection,
} from '../projections/wallet-balance.projection';

@Injectable()
export class WalletBalances {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly projections: ProjectionsService,
  ) {}

  /**
   * The balance as of everything recorded so far: a caller who was just told a send was
   * accepted, or a checkout succeeded, sees it in `sms_left` on the very next read. Without
   * `readYourWrites`, as the read model has it now (a hint, never the authority on credit).
   */
  async get(walletId: string, options = { readYourWrites: true }): Promise<WalletBalanceView | null> {
    if (options.readYourWrites) await this.projections.catchUp([walletBalanceProjection.name]);
    return this.reads.get<WalletBalanceView>(WALLETS, walletId);
  }
}
