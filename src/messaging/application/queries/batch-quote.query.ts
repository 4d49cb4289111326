import { Query } from '@nestjs/cqrs';
import type { DomainError } from '../../../shared/domain-error';
import type { BatchInput } from '../../domain/batch-input';
import type { SendContext } from '../send-pipeline.service';

/** What one item of a batch would cost, or the refusal its send would get. */
export type BatchItemQuote =
  | {
      readonly ok: true;
      readonly to: string;
      readonly carrier: string;
      readonly encoding: string;
      readonly segments: number;
      readonly credits: number;
    }
  | { readonly ok: false; readonly error: DomainError };

export interface BatchQuoteView {
  readonly items: readonly BatchItemQuote[];
  /** Items that would be sent, and the credits their reservation takes all at once. */
  readonly accepted: number;
  readonly refused: number;
  readonly credits: number;
  readonly sms_left: number;
  /** At least one item to send, and sms_left covers them all (else the batch is a 402). */
  readonly sendable: boolean;
}

/**
 * What a batch would cost and whether it would be sent: the batch's own checks (a 400 for the
 * whole batch is thrown as the send would), then each item's as a single send's quote. Nothing
 * is reserved or recorded. The console's "Send to many" preview.
 */
export class BatchQuote extends Query<BatchQuoteView> {
  constructor(
    readonly sender: Extract<SendContext, { mode: 'wallet' }>,
    readonly input: BatchInput,
  ) {
    super();
  }
}
