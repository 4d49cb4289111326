import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { BatchSend } from '../batch-send.service';
import { SendBatch, SentBatch } from './send-batch.command';

@CommandHandler(SendBatch)
export class SendBatchHandler implements ICommandHandler<SendBatch, SentBatch> {
  constructor(private readonly batches: BatchSend) {}

  execute({ sender, input, idempotencyKey }: SendBatch): Promise<SentBatch> {
    return this.batches.send(input, sender, idempotencyKey);
  }
}
