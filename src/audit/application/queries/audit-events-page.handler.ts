import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { notFound } from '../../../shared/domain-error';
import { type ListPage, page } from '../../../shared/http/pagination';
import { READ_STORE, ReadStore } from '../../../shared/read-store/read-store.port';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import type { AuditEventView } from '../../domain/audit-event';
import {
  AUDIT_EVENTS,
  AUDIT_EVENTS_PROJECTION,
  auditDocId,
  auditPartitions,
} from '../../projections/audit-events.projection';
import { AuditEventsPage } from './audit-events-page.query';

@QueryHandler(AuditEventsPage)
export class AuditEventsPageHandler implements IQueryHandler<AuditEventsPage, ListPage<AuditEventView>> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly projections: ProjectionsService,
  ) {}

  async execute({
    accountId,
    limit,
    startingAfter,
    filter,
  }: AuditEventsPage): Promise<ListPage<AuditEventView>> {
    // What was just done (a key minted, a member invited) is in the log before it is answered: the
    // audit log shows it from the next read on.
    await this.projections.catchUp([AUDIT_EVENTS_PROJECTION]);
    let afterSort: string | undefined;
    if (startingAfter) {
      const cursor = await this.reads.get<AuditEventView>(AUDIT_EVENTS, auditDocId(accountId, startingAfter));
      if (!cursor) throw notFound('audit event', 'starting_after');
      afterSort = cursor.id;
    }
    const { collection, partition } = auditPartitions(accountId, filter.action, filter.memberId);
    const items = await this.reads.list<AuditEventView>(collection, {
      partition,
      order: 'desc',
      limit: limit + 1,
      afterSort,
    });
    return page(items, limit);
  }
}
