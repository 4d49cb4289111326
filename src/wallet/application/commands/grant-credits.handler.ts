import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomToken } from '../../../shared/ids';
import { WalletService } from '../wallet.service';
import { GrantCredits, GrantedCredits } from './grant-credits.command';

@CommandHandler(GrantCredits)
export class GrantCreditsHandler implements ICommandHandler<GrantCredits, GrantedCredits> {
  constructor(private readonly wallets: WalletService) {}

  async execute({ walletId, sms, reason, grantId }: GrantCredits): Promise<GrantedCredits> {
    const sourceId = grantId ? `grant:${grantId}` : `grant:${Date.now()}:${randomToken(8)}`;
    const result = await this.wallets.addCredits(walletId, {
      sourceId,
      source: 'operator_grant',
      sms,
      reason,
    });
    if (!result.ok) throw result.error;
    return {
      wallet: walletId,
      granted: sms,
      reason,
      source_id: sourceId,
      sms_left: result.value.smsLeft,
    };
  }
}
