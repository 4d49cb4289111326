import { Command } from '@nestjs/cqrs';
import type { BatchInput } from '../../domain/batch-input';
import type { BatchView } from '../batch-send.service';
import type { SendContext } from '../send-pipeline.service';

export interface SentBatch {
  readonly batch: BatchView;
  /** True when an Idempotency-Key replayed an earlier answer instead of sending. */
  readonly replayed: boolean;
}

/** Send up to 1,000 SMS in one request (POST /v1/messages/batch), with an optional Idempotency-Key. */
export class SendBatch extends Command<SentBatch> {
  constructor(
    readonly sender: Extract<SendContext, { mode: 'wallet' }>,
    readonly input: BatchInput,
    readonly idempotencyKey: string | null = null,
  ) {
    super();
  }
}
