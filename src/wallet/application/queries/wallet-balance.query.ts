import { Query } from '@nestjs/cqrs';
import type { WalletBalanceView } from '../../projections/wallet-balance.projection';

/** The wallet's balances as of everything recorded so far (null before the wallet exists). */
export class WalletBalance extends Query<WalletBalanceView | null> {
  constructor(readonly walletId: string) {
    super();
  }
}
