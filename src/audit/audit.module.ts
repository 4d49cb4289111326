import { Module } from '@nestjs/common';
import { ProjectionsService } from '../shared/projections/projections.service';
import { AuditEventsPageHandler } from './application/queries/audit-events-page.handler';
import { AuditEventsHttpController } from './http/audit-events.http.controller';
import { auditEventsProjection } from './projections/audit-events.projection';

/**
 * The audit log (API.md, "Teams"): downstream of every context, a read model of the events that
 * record who did what (`GET /v1/audit_events`, the console's Audit log page).
 */
@Module({
  controllers: [AuditEventsHttpController],
  providers: [AuditEventsPageHandler],
})
export class AuditModule {
  constructor(projections: ProjectionsService) {
    projections.register(auditEventsProjection);
  }
}
