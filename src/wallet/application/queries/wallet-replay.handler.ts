import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import { smsLeft } from '../../domain/wallet.decider';
import { WalletBalances } from '../wallet-balances.query';
import { WalletService } from '../wallet.service';
import { WalletReplay, WalletReplayReport } from './wallet-replay.query';

@QueryHandler(WalletReplay)
export class WalletReplayHandler implements IQueryHandler<WalletReplay, WalletReplayReport | null> {
  constructor(
    private readonly wallets: WalletService,
    private readonly balances: WalletBalances,
    private readonly projections: ProjectionsService,
  ) {}

  async execute({ walletId, onProgress }: WalletReplay): Promise<WalletReplayReport | null> {
    const replayed = await this.wallets.replay(walletId, onProgress);
    if (!replayed) return null;
    await this.projections.catchUp();
    const readModel = await this.balances.get(walletId);
    const { wallet } = replayed;
    const left = smsLeft(wallet);
    const creditsIn = wallet.balance + wallet.captured;
    const consistent =
      readModel !== null &&
      readModel.smsLeft === left &&
      readModel.captured === wallet.captured &&
      readModel.reserved === wallet.reservedTotal &&
      (readModel.held ?? 0) === wallet.heldTotal &&
      creditsIn === left + wallet.captured + wallet.reservedTotal + wallet.heldTotal;
    return {
      wallet: walletId,
      events: replayed.events,
      sms_left: left,
      read_model_sms_left: readModel?.smsLeft ?? null,
      credits_in: creditsIn,
      captured: wallet.captured,
      reserved: wallet.reservedTotal,
      open_reservations: wallet.reserved.size,
      held: wallet.heldTotal,
      consistent,
    };
  }
}
