import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import { WALLETS, WalletBalanceView } from '../projections/wallet-balance.projection';

@Injectable()
export class WalletBalances {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  get(walletId: string): Promise<WalletBalanceView | null> {
    return this.reads.get<WalletBalanceView>(WALLETS, walletId);
  }
}
