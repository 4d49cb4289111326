import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../shared/domain-error';
import { IdempotentSend } from '../idempotent-send.service';
import { SendPipeline } from '../send-pipeline.service';
import { SendMessage, SentMessage } from './send-message.command';

@CommandHandler(SendMessage)
export class SendMessageHandler implements ICommandHandler<SendMessage, SentMessage> {
  constructor(
    private readonly pipeline: SendPipeline,
    private readonly idempotent: IdempotentSend,
  ) {}

  async execute({ sender, input, idempotencyKey }: SendMessage): Promise<SentMessage> {
    if (idempotencyKey === null) {
      return { message: (await this.pipeline.send(input, sender)).message, replayed: false };
    }
    if (sender.mode !== 'wallet') {
      throw new DomainError(
        'invalid_request',
        'invalid_request',
        'The sandbox try-out takes no Idempotency-Key',
      );
    }
    return this.idempotent.send(idempotencyKey, input, sender);
  }
}
