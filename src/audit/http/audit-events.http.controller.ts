import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import { ApiErrors } from '../../shared/http/api-errors.decorator';
import { AuditEventsPage } from '../application/queries/audit-events-page.query';
import { AuditEventListResponse, AuditEventsQueryDto } from './audit-events.dto';

@ApiTags('audit')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/audit_events')
export class AuditEventsHttpController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    summary:
      "The account's audit log, both environments, newest first: sign-ins (and failed ones), members, keys, webhook endpoints, sender IDs, wallet alerts and auto top-up, checkouts, password resets",
  })
  @ApiOkResponse({ type: AuditEventListResponse })
  @ApiErrors({
    400: ['invalid_limit'],
    403: ['permission_denied'],
    404: ['resource_missing (starting_after)'],
  })
  list(@CurrentPrincipal() principal: Principal, @Query() query: AuditEventsQueryDto) {
    return this.queries.execute(
      new AuditEventsPage(principal.accountId, query.limit ?? 20, query.starting_after || undefined),
    );
  }
}
