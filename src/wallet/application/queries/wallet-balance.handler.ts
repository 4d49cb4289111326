import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { WalletBalanceView } from '../../projections/wallet-balance.projection';
import { WalletBalances } from '../wallet-balances.query';
import { WalletBalance } from './wallet-balance.query';

@QueryHandler(WalletBalance)
export class WalletBalanceHandler implements IQueryHandler<WalletBalance, WalletBalanceView | null> {
  constructor(private readonly balances: WalletBalances) {}

  execute({ walletId }: WalletBalance): Promise<WalletBalanceView | null> {
    return this.balances.get(walletId);
  }
}
