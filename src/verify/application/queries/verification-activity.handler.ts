import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import { statusAt } from '../../domain/verification.decider';
import { VERIFICATIONS_PROJECTION } from '../../projections/verifications.projection';
import { VerificationReader } from '../verification-reader';
import { VerificationActivity, VerificationActivityView } from './verification-activity.query';

const REFUSALS_SHOWN = 10;

@QueryHandler(VerificationActivity)
export class VerificationActivityHandler implements IQueryHandler<
  VerificationActivity,
  VerificationActivityView
> {
  constructor(
    private readonly verifications: VerificationReader,
    private readonly projections: ProjectionsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ scope, recent, days }: VerificationActivity): Promise<VerificationActivityView> {
    await this.projections.catchUp([VERIFICATIONS_PROJECTION]);
    const [docs, dayDocs, refusals] = await Promise.all([
      this.verifications.list(scope.walletId, recent),
      this.verifications.days(scope.walletId, days),
      this.verifications.refusals(scope.walletId, REFUSALS_SHOWN),
    ]);
    const now = this.clock.now();
    return {
      recent: docs
        .filter((d) => d.environment === scope.environment)
        .map((d) => ({
          id: d.id,
          to: d.to,
          status: statusAt(d, now),
          checksUsed: d.checks,
          maxChecks: d.maxChecks,
          sends: d.sends,
          createdAt: d.createdAt,
          secondsToApprove: d.approvedAt
            ? Math.round((Date.parse(d.approvedAt) - Date.parse(d.createdAt)) / 1000)
            : null,
          credits: d.credits,
        })),
      days: dayDocs.map((d) => ({
        day: d.day,
        started: d.started,
        approved: d.approved,
        conversion: d.started > 0 ? d.approved / d.started : null,
        refused: d.refused,
        credits: d.credits,
      })),
      refusals: refusals.map((r) => ({
        to: r.to,
        limit: r.limit,
        retryAfterSeconds: r.retryAfterSeconds,
        at: r.at,
      })),
    };
  }
}
