import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { notFound } from '../../../shared/domain-error';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { isIdOf } from '../../../shared/ids';
import { unwrap } from '../../../shared/result';
import { cancel, Verification, verificationDecider } from '../../domain/verification.decider';
import { verificationStream } from '../../domain/verification.events';
import { ApiVerification, toApiVerification } from '../../domain/verification-object';
import { CancelVerification } from './cancel-verification.command';

@CommandHandler(CancelVerification)
export class CancelVerificationHandler implements ICommandHandler<CancelVerification, ApiVerification> {
  constructor(
    private readonly aggregates: AggregateStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ scope, verificationId }: CancelVerification): Promise<ApiVerification> {
    if (!isIdOf('ver', verificationId)) throw notFound('verification', 'id');
    const now = this.clock.now();
    const canceled = unwrap(
      await this.aggregates.handle(verificationStream(verificationId), verificationDecider, (s) =>
        cancel(s, { scope, now }),
      ),
    );
    return toApiVerification(canceled.state as Verification, now);
  }
}
