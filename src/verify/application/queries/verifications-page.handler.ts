import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { notFound } from '../../../shared/domain-error';
import { ListPage, page } from '../../../shared/http/pagination';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import { ApiVerification, verificationObject } from '../../domain/verification-object';
import { VERIFICATIONS_PROJECTION } from '../../projections/verifications.projection';
import { VerificationReader } from '../verification-reader';
import { VerificationsPage } from './verifications-page.query';

/**
 * Lists from the read model once it has caught up with the log, so the list shows what the
 * caller was just told (a create, a check).
 */
@QueryHandler(VerificationsPage)
export class VerificationsPageHandler implements IQueryHandler<VerificationsPage, ListPage<ApiVerification>> {
  constructor(
    private readonly verifications: VerificationReader,
    private readonly projections: ProjectionsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ scope, limit, startingAfter }: VerificationsPage): Promise<ListPage<ApiVerification>> {
    await this.projections.catchUp([VERIFICATIONS_PROJECTION]);
    let afterSort: string | undefined;
    if (startingAfter !== undefined && startingAfter !== '') {
      const cursor = await this.verifications.find(startingAfter, scope);
      if (!cursor) throw notFound('verification', 'starting_after');
      afterSort = cursor.sort;
    }
    const docs = await this.verifications.list(scope.walletId, limit + 1, afterSort);
    const now = this.clock.now();
    return page(
      docs.filter((d) => d.environment === scope.environment).map((d) => verificationObject(d, now)),
      limit,
    );
  }
}
