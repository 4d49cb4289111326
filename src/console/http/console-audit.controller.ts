import { Get, Query, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { AccountMembers } from '../../accounts/application/queries/account-members.query';
import { AuditEventsPage } from '../../audit/application/queries/audit-events-page.query';
import { AUDIT_ACTIONS, isAuditAction } from '../../audit/domain/audit-event';
import { signedIn } from './console-auth';
import { AuditPageQuery } from './console-forms.dto';
import type { ConsoleRequest } from './console-http';
import { ConsolePage, ConsolePages } from './console-page';

const PAGE_SIZE = 50;

/** The Audit log page: the API's `GET /v1/audit_events`, filtered by action and by member. */
@ConsolePages()
export class ConsoleAuditController {
  constructor(
    private readonly page: ConsolePage,
    private readonly queries: QueryBus,
  ) {}

  @Get('audit')
  async audit(@Req() request: ConsoleRequest, @Res() reply: FastifyReply, @Query() query: AuditPageQuery) {
    const { account } = signedIn(request);
    const action = isAuditAction(query.action) ? query.action : null;
    const team = await this.queries.execute(new AccountMembers(account.id));
    const memberId = team.members.some((m) => m.id === query.member) ? (query.member as string) : null;
    const cursor = query.starting_after || undefined;
    const events = await this.page.found(
      () => this.queries.execute(new AuditEventsPage(account.id, PAGE_SIZE, cursor, { action, memberId })),
      'audit event',
    );
    const filters = new URLSearchParams({
      ...(action ? { action } : {}),
      ...(memberId ? { member: memberId } : {}),
    });
    const last = events.data[events.data.length - 1];
    const next = new URLSearchParams(filters);
    if (last) next.set('starting_after', last.id);
    await this.page.render(request, reply, 'audit', {
      title: 'Audit log',
      nav: 'audit',
      events: events.data,
      actions: AUDIT_ACTIONS,
      members: team.members,
      action,
      memberId,
      nextHref: events.has_more && last ? `/console/audit?${next}` : null,
      firstHref: cursor ? `/console/audit${filters.size ? `?${filters}` : ''}` : null,
    });
  }
}
