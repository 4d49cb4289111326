import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { DomainError, notFound } from '../../../shared/domain-error';
import { fold } from '../../../shared/decider';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { ConcurrencyError } from '../../../shared/event-store/event-store.port';
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
} from '../../domain/verification.decider';
import { verificationStream } from '../../domain/verification.events';
import { ApiVerification, toApiVerification, verificationMessageId } from '../../domain/verification-object';
import { ONE_TIME_CODES, OneTimeCodes } from '../one-time-codes';
import type { VerificationAnswer } from '../verification-caller';
import { VerificationSms } from '../verification-sms.service';
import { ResendVerification } from './resend-verification.command';

/**
 * The decision (closed, too many sends, too soon), then messaging's checks of the new SMS, then
 * one write: the SMS's reservation and message with VerificationCodeResent beside them, at the
 * revision the resend was decided on (or nothing: a 402 records no resend).
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
    let checked: { credits: number } | null = null;
    for (let attempt = 1; ; attempt++) {
      const { state, revision } = await this.aggregates.state(stream, verificationDecider, {
        trustRemembered: false,
      });
      if (
        !isVerification(state) ||
        state.walletId !== caller.walletId ||
        state.environment !== caller.environment
      )
        throw notFound('verification', 'id');
      const code = this.codes.generate(state.codeLength);
      const sms = this.sms.compose(state.to, state.senderId, state.template, code);
      const send = state.sends + 1;
      const decide = (credits: number) =>
        resend(state, {
          scope: caller,
          codeHash: this.codes.hash(verificationId, send, code),
          messageId: verificationMessageId(verificationId, send),
          credits,
          now: this.clock.now(),
          ...(caller.environment === 'TEST' ? { sealedTestCode: this.secrets.seal(code) } : {}),
        });
      // Its own refusals first (closed, too many sends, too soon), then what the SMS would meet.
      throwRefusal(decide(0));
      checked ??= await this.sms.precheck(caller, sms);
      const decided = decide(checked.credits);
      throwRefusal(decided);
      const events = decided.ok ? decided.value : [];
      // The resend is recorded in the SMS's own write, at the revision it was decided on: a check
      // or another resend in between makes it decide again.
      let created = false;
      try {
        const fact = { streamId: stream, events, expected: revision };
        created = (await this.sms.send(caller, sms, verificationMessageId(verificationId, send), fact))
          .created;
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || error.streamId !== stream) throw error;
      }
      if (created) {
        const resent = fold(verificationDecider, events, state) as Verification;
        this.aggregates.remember(stream, verificationDecider, { state: resent, revision: revision + 1n });
        return {
          verification: toApiVerification(resent, this.clock.now()),
          testCode: caller.environment === 'TEST' ? code : null,
          replayed: false,
        };
      }
      if (attempt >= 5)
        throw new DomainError('conflict', 'verification_busy', 'The verification changed meanwhile; retry');
    }
  }
}
