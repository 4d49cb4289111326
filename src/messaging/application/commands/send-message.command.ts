import { Command } from '@nestjs/cqrs';
import type { SendInput } from '../../domain/message-input';
import type { ApiMessage } from '../../projections/messages.projection';
import type { SendContext } from '../send-pipeline.service';

export interface SentMessage {
  readonly message: ApiMessage;
  /** True when an Idempotency-Key replayed an earlier answer instead of sending. */
  readonly replayed: boolean;
}

/**
 * Send one SMS: from the API (with an optional Idempotency-Key), the console, the key-less
 * try-out (sandbox context) alike.
 */
export class SendMessage extends Command<SentMessage> {
  constructor(
    readonly sender: SendContext,
    readonly input: SendInput,
    readonly idempotencyKey: string | null = null,
  ) {
    super();
  }
}
