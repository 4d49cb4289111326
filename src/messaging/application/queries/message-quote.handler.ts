import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { WalletBalances } from '../../../wallet/application/wallet-balances.query';
import { SendPipeline } from '../send-pipeline.service';
import { MessageQuote, Quote } from './message-quote.query';

@QueryHandler(MessageQuote)
export class MessageQuoteHandler implements IQueryHandler<MessageQuote, Quote> {
  constructor(
    private readonly pipeline: SendPipeline,
    private readonly balances: WalletBalances,
  ) {}

  async execute({ sender, input, readYourWrites }: MessageQuote): Promise<Quote> {
    const valid = await this.pipeline.validate(input, sender);
    const smsLeft = (await this.balances.get(sender.walletId, { readYourWrites }))?.smsLeft ?? 0;
    return {
      object: 'quote',
      to: valid.to,
      carrier: valid.carrier,
      encoding: valid.encoding,
      segments: valid.segments,
      credits: valid.credits,
      sms_left: smsLeft,
      sendable: smsLeft >= valid.credits,
    };
  }
}
