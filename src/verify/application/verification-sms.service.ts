import { Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  SendSecretMessage,
  SentSecretMessage,
} from '../../messaging/application/commands/send-secret-message.command';
import { MessageQuote } from '../../messaging/application/queries/message-quote.query';
import type { SendInput } from '../../messaging/domain/message-input';
import type { StreamAppend } from '../../shared/event-store/event-store.port';
import { maskedText, renderCode } from '../domain/verification-input';
import type { VerifyCaller } from './verification-caller';

/** One code's SMS, as messaging's one send path takes it. */
export interface CodeSms {
  readonly input: SendInput;
  /** What every read of the message shows: the code masked. */
  readonly displayText: string;
}

const walletContext = (caller: VerifyCaller) => ({ mode: 'wallet' as const, ...caller });

/**
 * How Verify asks messaging for its SMS: only through messaging's query and command (the arrow
 * points from verify to messaging, never back). The text with the code lives in memory here and
 * is sealed by messaging before anything is recorded.
 */
@Injectable()
export class VerificationSms {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  compose(to: string, senderId: string, template: string, code: string): CodeSms {
    return {
      input: { to, sender_id: senderId, message: renderCode(template, code), type: 'transactional' },
      displayText: maskedText(template, code.length),
    };
  }

  /**
   * Everything a send would refuse before it touches the wallet, before anything is recorded:
   * messaging's 400s and 422s (the number, routing, LIVE sender ID rules, a carrier connection).
   * Answers the number as routed and the credits the SMS reserves. Credit itself is the send's to
   * decide (a 402 there records nothing): a read model's balance may lag a purchase just made.
   */
  async precheck(caller: VerifyCaller, sms: CodeSms): Promise<{ to: string; credits: number }> {
    const quote = await this.queries.execute(new MessageQuote(walletContext(caller), sms.input, false));
    return { to: quote.to, credits: quote.credits };
  }

  /**
   * Reserves and queues the SMS under its derived message id, with the verification's own append
   * in the same write (or neither: a 402 records nothing). `created` is false when a message with
   * that id was there already: another request recorded this send, and `fact` was not written.
   */
  send(
    caller: VerifyCaller,
    sms: CodeSms,
    messageId: string,
    fact: StreamAppend,
  ): Promise<SentSecretMessage> {
    return this.commands.execute(
      new SendSecretMessage(walletContext(caller), sms.input, sms.displayText, messageId, fact),
    );
  }
}
