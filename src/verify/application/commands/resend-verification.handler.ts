import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { DomainError, notFound } from '../../../shared/domain-error';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { DomainErrorWithHeaders } from '../../../shared/http/error-body';
import { isIdOf } from '../../../shared/ids';
import type { Result } from '../../../shared/result';
import { SECRET_BOX, SecretBox } from '../../../shared/secret-box';
import {
  isVerification,
  resend,
  RetryLater,
  Verification,
  verificationDecider,
  VerificationState,
} from '../../domain/verification.decider';
import { verificationStream } from '../../domain/verification.events';
import { ApiVerification, toApiVerification, verificationMessageId } from '../../domain/verification-object';
import { ONE_TIME_CODES, OneTimeCodes } from '../one-time-codes';
import type { VerificationAnswer } from '../verification-caller';
import { VerificationSms } from '../verification-sms.service';
import { ResendVerification } from './resend-verification.command';

/**
 * Messaging's checks of the new SMS come first (nothing is recorded if it would be refused), then
 * the decision at the stream's revision (closed, too many sends, too soon), then the SMS.
 */
/** A refusal of the decider as the API answers it: a 429 with its Retry-After. */
function throwRefusal(decided: Result<unknown, DomainError>): void {
  if (decided.ok) return;
  const error = decided.error;
  if (error instanceof RetryLater)
    throw new DomainErrorWithHeaders(error, { 'retry-after': String(error.retryAfterSeconds) });
  throw error;
}

@CommandHandler(ResendVerification)
export class ResendVerificationHandler implements ICommandHandler<
  ResendVerification,
  VerificationAnswer<ApiVerification>
> {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly sms: VerificationSms,
    @Inject(ONE_TIME_CODES) private readonly codes: OneTimeCodes,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({
    caller,
    verificationId,
  }: ResendVerification): Promise<VerificationAnswer<ApiVerification>> {
    if (!isIdOf('ver', verificationId)) throw notFound('verification', 'id');
    const stream = verificationStream(verificationId);
    const { state } = await this.aggregates.state(stream, verificationDecider, { trustRemembered: false });
    if (
      !isVerification(state) ||
      state.walletId !== caller.walletId ||
      state.environment !== caller.environment
    )
      throw notFound('verification', 'id');
    const code = this.codes.generate(state.codeLength);
    const sms = this.sms.compose(state.to, state.senderId, state.template, code);
    const now = this.clock.now();
    const decide = (s: VerificationState, credits: number) => {
      const send = isVerification(s) ? s.sends + 1 : 0;
      return resend(s, {
        scope: caller,
        codeHash: this.codes.hash(verificationId, send, code),
        messageId: verificationMessageId(verificationId, send),
        credits,
        now,
        ...(caller.environment === 'TEST' ? { sealedTestCode: this.secrets.seal(code) } : {}),
      });
    };
    // Its own refusals first (closed, too many sends, too soon), then what the SMS would meet.
    throwRefusal(decide(state, 0));
    const { credits } = await this.sms.precheck(caller, sms);
    const decided = await this.aggregates.handle(stream, verificationDecider, (s) => decide(s, credits));
    throwRefusal(decided);
    const resent = decided.ok ? (decided.value.state as Verification) : state;
    await this.sms.send(caller, sms, verificationMessageId(verificationId, resent.sends));
    return {
      verification: toApiVerification(resent, now),
      testCode: caller.environment === 'TEST' ? code : null,
      replayed: false,
    };
  }
}
