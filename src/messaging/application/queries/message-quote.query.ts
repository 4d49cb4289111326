import { Query } from '@nestjs/cqrs';
import type { SendInput } from '../../domain/message-input';
import type { SendContext } from '../send-pipeline.service';

export interface Quote {
  readonly object: 'quote';
  readonly to: string;
  readonly carrier: string;
  readonly encoding: string;
  readonly segments: number;
  readonly credits: number;
  readonly sms_left: number;
  readonly sendable: boolean;
}

/**
 * What a send would cost and whether sms_left covers it. A query, not a command: it validates
 * like a send (the same 400s) but reserves and records nothing (API.md).
 */
export class MessageQuote extends Query<Quote> {
  constructor(
    readonly sender: Extract<SendContext, { mode: 'wallet' }>,
    readonly input: SendInput,
    /**
     * True (the API's quote): `sms_left` as of everything recorded so far, waiting for the
     * balance read model to catch up. False: as the read model has it now, for a caller that
     * wants the validation and the cost and leaves credit to the send that follows.
     */
    readonly readYourWrites = true,
  ) {
    super();
  }
}
