import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { invalid, notFound } from '../../../shared/domain-error';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { isIdOf } from '../../../shared/ids';
import { VerifyMetrics } from '../../../shared/metrics/verify.metrics';
import { unwrap } from '../../../shared/result';
import { check, isVerification, Verification, verificationDecider } from '../../domain/verification.decider';
import { verificationStream } from '../../domain/verification.events';
import { isCodeShape } from '../../domain/verification-input';
import { ApiVerification, toApiVerification } from '../../domain/verification-object';
import { ONE_TIME_CODES, OneTimeCodes } from '../one-time-codes';
import { CheckVerification } from './check-verification.command';

const OUTCOMES = {
  VerificationApproved: 'approved',
  VerificationCheckFailed: 'wrong',
  VerificationFailed: 'failed',
  VerificationExpired: 'expired',
} as const;

/**
 * Decided at the stream's revision: two checks at once each use a check, so no number of
 * parallel guesses gets past `max_checks`. The code is hashed with the current send's key input
 * and compared in constant time by the decider; it is never recorded or logged.
 */
@CommandHandler(CheckVerification)
export class CheckVerificationHandler implements ICommandHandler<CheckVerification, ApiVerification> {
  constructor(
    private readonly aggregates: AggregateStore,
    @Inject(ONE_TIME_CODES) private readonly codes: OneTimeCodes,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly metrics: VerifyMetrics,
  ) {}

  async execute({ scope, verificationId, code }: CheckVerification): Promise<ApiVerification> {
    if (!isIdOf('ver', verificationId)) throw notFound('verification', 'id');
    if (!isCodeShape(code)) throw invalid('invalid_code', 'code must be 4 to 10 digits', 'code');
    const now = this.clock.now();
    const checked = unwrap(
      await this.aggregates.handle(verificationStream(verificationId), verificationDecider, (state) =>
        check(state, {
          scope,
          codeHash: isVerification(state) ? this.codes.hash(state.verificationId, state.sends, code) : '',
          now,
        }),
      ),
    );
    const recorded = checked.events[0]?.type;
    if (recorded && recorded in OUTCOMES) {
      this.metrics.checked(scope.environment, OUTCOMES[recorded as keyof typeof OUTCOMES]);
    }
    return toApiVerification(checked.state as Verification, now);
  }
}
