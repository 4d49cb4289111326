import { Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { SendSecretMessage } from '../../messaging/application/commands/send-secret-message.command';
import { MessageQuote } from '../../messaging/application/queries/message-quote.query';
import type { SendInput } from '../../messaging/domain/message-input';
import { InsufficientCredit } from '../../wallet/domain/wallet.decider';
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
   * Everything a send would refuse, before anything is recorded: messaging's 400s and 422s (the
   * number, routing, LIVE sender ID rules, a carrier connection), and 402 when sms_left does not
   * cover it. Answers the number as routed and the credits the SMS reserves.
   */
  async precheck(caller: VerifyCaller, sms: CodeSms): Promise<{ to: string; credits: number }> {
    const quote = await this.queries.execute(new MessageQuote(walletContext(caller), sms.input));
    if (!quote.sendable)
      throw new InsufficientCredit(quote.sms_left, quote.credits, 'The verification’s SMS');
    return { to: quote.to, credits: quote.credits };
  }

  /** Reserves and queues the SMS under its derived message id (safe to run again with it). */
  async send(caller: VerifyCaller, sms: CodeSms, messageId: string): Promise<void> {
    await this.commands.execute(
      new SendSecretMessage(walletContext(caller), sms.input, sms.displayText, messageId),
    );
  }
}
