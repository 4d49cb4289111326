import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { WalletBalances } from '../../../wallet/application/wallet-balances.query';
import { BillingSummary, BillingSummaryObject } from './billing-summary.query';

@QueryHandler(BillingSummary)
export class BillingSummaryHandler implements IQueryHandler<BillingSummary, BillingSummaryObject> {
  constructor(
    private readonly balances: WalletBalances,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ walletId, environment }: BillingSummary): Promise<BillingSummaryObject> {
    const wallet = await this.balances.get(walletId);
    return {
      object: 'billing',
      environment,
      sms_left: wallet?.smsLeft ?? 0,
      packages: this.config.packages.map((p) => ({
        object: 'package',
        id: p.id,
        name: p.name,
        amount: p.amount,
        currency: p.currency,
        sms: p.sms,
      })),
    };
  }
}
