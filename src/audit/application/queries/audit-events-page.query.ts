import { Query } from '@nestjs/cqrs';
import type { ListPage } from '../../../shared/http/pagination';
import type { AuditEventView } from '../../domain/audit-event';

/** The console's filters: one action, one member (as the actor), or both. */
export interface AuditFilter {
  readonly action?: string | null;
  readonly memberId?: string | null;
}

/**
 * An account's audit events, both environments, newest first (`GET /v1/audit_events`, the console's
 * Audit log): `limit` of them after `startingAfter` (an `aud_` id of the account's; another is 404).
 */
export class AuditEventsPage extends Query<ListPage<AuditEventView>> {
  constructor(
    readonly accountId: string,
    readonly limit: number,
    readonly startingAfter?: string,
    readonly filter: AuditFilter = {},
  ) {
    super();
  }
}
