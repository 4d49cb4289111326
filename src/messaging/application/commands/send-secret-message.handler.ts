import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SendPipeline } from '../send-pipeline.service';
import { SendSecretMessage, SentSecretMessage } from './send-secret-message.command';

@CommandHandler(SendSecretMessage)
export class SendSecretMessageHandler implements ICommandHandler<SendSecretMessage, SentSecretMessage> {
  constructor(private readonly pipeline: SendPipeline) {}

  execute({
    sender,
    input,
    displayText,
    messageId,
    alongside,
  }: SendSecretMessage): Promise<SentSecretMessage> {
    return this.pipeline.send(input, sender, { messageId, secret: { displayText }, alongside });
  }
}
