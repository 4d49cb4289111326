import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { WalletBalances } from '../../../wallet/application/wallet-balances.query';
import { BatchSend } from '../batch-send.service';
import { BatchItemQuote, BatchQuote, BatchQuoteView } from './batch-quote.query';

@QueryHandler(BatchQuote)
export class BatchQuoteHandler implements IQueryHandler<BatchQuote, BatchQuoteView> {
  constructor(
    private readonly batches: BatchSend,
    private readonly balances: WalletBalances,
  ) {}

  async execute({ sender, input }: BatchQuote): Promise<BatchQuoteView> {
    const checks = await this.batches.check(input, sender);
    const items = checks.map((check): BatchItemQuote =>
      check.ok
        ? {
            ok: true,
            to: check.value.to,
            carrier: check.value.carrier,
            encoding: check.value.encoding,
            segments: check.value.segments,
            credits: check.value.credits,
          }
        : { ok: false, error: check.error },
    );
    const credits = items.reduce((sum, item) => sum + (item.ok ? item.credits : 0), 0);
    const accepted = items.filter((item) => item.ok).length;
    const smsLeft = (await this.balances.get(sender.walletId))?.smsLeft ?? 0;
    return {
      items,
      accepted,
      refused: items.length - accepted,
      credits,
      sms_left: smsLeft,
      sendable: accepted > 0 && smsLeft >= credits,
    };
  }
}
