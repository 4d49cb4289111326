import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { notFound } from '../../../shared/domain-error';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { isIdOf } from '../../../shared/ids';
import { isVerification, verificationDecider } from '../../domain/verification.decider';
import { verificationStream } from '../../domain/verification.events';
import { ApiVerification, toApiVerification } from '../../domain/verification-object';
import { VerificationById } from './verification-by-id.query';

/**
 * Answers from the verification's own stream (a handful of events), never a read model: what a
 * create or a check just answered is what the next read shows, and a verification past its
 * expiry reads `expired` at once, whether or not the expiry process has recorded it yet.
 */
@QueryHandler(VerificationById)
export class VerificationByIdHandler implements IQueryHandler<VerificationById, ApiVerification> {
  constructor(
    private readonly aggregates: AggregateStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ scope, verificationId }: VerificationById): Promise<ApiVerification> {
    if (!isIdOf('ver', verificationId)) throw notFound('verification', 'id');
    const { state } = await this.aggregates.state(verificationStream(verificationId), verificationDecider, {
      trustRemembered: false,
    });
    if (
      !isVerification(state) ||
      state.walletId !== scope.walletId ||
      state.environment !== scope.environment
    )
      throw notFound('verification', 'id');
    return toApiVerification(state, this.clock.now());
  }
}
