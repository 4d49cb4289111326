import { Command } from '@nestjs/cqrs';
import type { StreamAppend } from '../../../shared/event-store/event-store.port';
import type { SendInput } from '../../domain/message-input';
import type { ApiMessage } from '../../projections/messages.projection';
import type { SendContext } from '../send-pipeline.service';

/** What a secret send answers: the message as every read shows it (its text masked). */
export interface SentSecretMessage {
  readonly message: ApiMessage;
  /** False when a message with this id was already accepted (the command ran before). */
  readonly created: boolean;
}

/**
 * Send one SMS whose text is a secret until the carrier has it (a one-time code): the same one
 * send path as SendMessage (validation, LIVE sender ID rules, routing, reservation, dispatch,
 * settlement), but the text is recorded only sealed, and everything that reads the message sees
 * `displayText`. Encoding, segments and credits are those of the real text in `input.message`.
 *
 * `messageId` is the caller's: running the command again with it accepts nothing twice.
 * `alongside` is the caller's own append that belongs with the message (a verification's start):
 * written in the same write as the reservation and the message, or not at all; a stream of it
 * that already exists refuses the send with the store's ConcurrencyError for that stream.
 */
export class SendSecretMessage extends Command<SentSecretMessage> {
  constructor(
    readonly sender: Extract<SendContext, { mode: 'wallet' }>,
    readonly input: SendInput,
    readonly displayText: string,
    readonly messageId: string,
    readonly alongside?: StreamAppend,
  ) {
    super();
  }
}
