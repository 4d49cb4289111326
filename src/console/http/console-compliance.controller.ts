import { Body, Get, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { AddOptOut, RemoveOptOut } from '../../compliance/application/commands/change-opt-out.command';
import { RequestSenderId } from '../../compliance/application/commands/request-sender-id.command';
import {
  InboundMessagesPage,
  OptOutsPage,
  SenderIdsList,
} from '../../compliance/application/queries/compliance-lists.query';
import { signedIn } from './console-auth';
import { CompliancePageQuery, OptOutForm, SenderIdRequestForm } from './console-compliance.forms';
import { ConsoleRequest, field, rawField, redirect } from './console-http';
import { ConsolePage, ConsolePages, Requires } from './console-page';

const INBOUND_PAGE_SIZE = 20;
const OPT_OUTS_PAGE_SIZE = 50;
/** The refusals shown next to a form (a 400, 404 or 409 of the use case); anything else is an error page. */
const SHOWN_KINDS = ['invalid_request', 'not_found', 'conflict'] as const;

interface FormProblems {
  readonly senderIdError?: string;
  readonly senderIdForm?: { sender_id: string; sample_message: string };
  readonly optOutError?: string;
  readonly optOutForm?: { phone_number: string };
}

/**
 * Compliance: the account's sender IDs (and a request for a new one), the environment's
 * inbound messages and its opt-out list, kept by hand here too. The API's use cases, through
 * the same buses; the operator approves sender IDs and assigns numbers with the CLI.
 */
@ConsolePages()
export class ConsoleComplianceController {
  constructor(
    private readonly page: ConsolePage,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('compliance')
  async compliancePage(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Query() query: CompliancePageQuery,
  ): Promise<void> {
    await this.render(request, reply, query, {});
  }

  @Post('compliance/sender-ids')
  @Requires('develop')
  async requestSenderId(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: SenderIdRequestForm,
  ): Promise<void> {
    const { account, actor } = signedIn(request);
    const form = { sender_id: field(body, 'sender_id'), sample_message: rawField(body, 'sample_message') };
    await this.page.submit(request, reply, body, {
      act: async () => {
        await this.commands.execute(
          new RequestSenderId(account.id, form.sender_id, form.sample_message, actor),
        );
        return '/console/compliance';
      },
      refused: (refusal) =>
        this.render(
          request,
          reply,
          {},
          { senderIdError: refusal.message, senderIdForm: form },
          refusal.status,
        ),
      shows: SHOWN_KINDS,
    });
  }

  @Post('compliance/opt-outs')
  @Requires('send')
  async addOptOut(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: OptOutForm,
  ): Promise<void> {
    const { walletId } = signedIn(request);
    const phoneNumber = field(body, 'phone_number');
    await this.page.submit(request, reply, body, {
      act: async () => {
        await this.commands.execute(new AddOptOut({ walletId, phoneNumber, source: 'console' }));
        return '/console/compliance#opt-outs';
      },
      refused: (refusal) =>
        this.render(
          request,
          reply,
          {},
          { optOutError: refusal.message, optOutForm: { phone_number: phoneNumber } },
          refusal.status,
        ),
      shows: SHOWN_KINDS,
    });
  }

  @Post('compliance/opt-outs/remove')
  @Requires('send')
  async removeOptOut(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: OptOutForm,
  ): Promise<void> {
    const { walletId } = signedIn(request);
    const phoneNumber = field(body, 'phone_number');
    const done = '/console/compliance#opt-outs';
    await this.page.submit(request, reply, body, {
      act: async () => {
        await this.commands.execute(new RemoveOptOut({ walletId, phoneNumber, source: 'console' }));
        return done;
      },
      // Removed twice (a double click): the second finds nothing to remove, which is what was wanted.
      refused: async () => redirect(reply, done),
      shows: SHOWN_KINDS,
    });
  }

  private async render(
    request: ConsoleRequest,
    reply: FastifyReply,
    query: CompliancePageQuery,
    problems: FormProblems,
    status = 200,
  ): Promise<void> {
    const { account, walletId } = signedIn(request);
    const [senderIds, inbound, optOuts] = await Promise.all([
      this.queries.execute(new SenderIdsList(account.id)),
      this.queries.execute(
        new InboundMessagesPage(walletId, INBOUND_PAGE_SIZE, query.inbound_after || undefined),
      ),
      this.queries.execute(new OptOutsPage(walletId, OPT_OUTS_PAGE_SIZE, query.opt_outs_after || undefined)),
    ]);
    const lastInbound = inbound.data[inbound.data.length - 1];
    const lastOptOut = optOuts.data[optOuts.data.length - 1];
    await this.page.render(
      request,
      reply,
      'compliance',
      {
        title: 'Compliance',
        nav: 'compliance',
        senderIds: senderIds.data,
        inbound: inbound.data,
        inboundNextHref:
          inbound.has_more && lastInbound
            ? `/console/compliance?inbound_after=${encodeURIComponent(lastInbound.id)}#inbound`
            : null,
        optOuts: optOuts.data,
        optOutsNextHref:
          optOuts.has_more && lastOptOut
            ? `/console/compliance?opt_outs_after=${encodeURIComponent(lastOptOut.phone_number)}#opt-outs`
            : null,
        senderIdError: problems.senderIdError ?? null,
        senderIdForm: problems.senderIdForm ?? { sender_id: '', sample_message: '' },
        optOutError: problems.optOutError ?? null,
        optOutForm: problems.optOutForm ?? { phone_number: '' },
      },
      status,
    );
  }
}
