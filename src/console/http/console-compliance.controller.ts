import { Body, Controller, Get, Inject, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AddOptOut, RemoveOptOut } from '../../compliance/application/commands/change-opt-out.command';
import { RequestSenderId } from '../../compliance/application/commands/request-sender-id.command';
import {
  InboundMessagesPage,
  OptOutsPage,
  SenderIdsList,
} from '../../compliance/application/queries/compliance-lists.query';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { DomainError } from '../../shared/domain-error';
import { ConsoleCsrfGuard, signedIn, SignedInGuard } from './console-auth';
import { CompliancePageQuery, OptOutForm, SenderIdRequestForm } from './console-compliance.forms';
import { ConsoleRequest, field, formToken, rawField, redirect, renderPage } from './console-http';

const INBOUND_PAGE_SIZE = 20;
const OPT_OUTS_PAGE_SIZE = 50;
/** The refusals shown next to a form (a 400, 404 or 409 of the use case); anything else is an error page. */
const SHOWN_KINDS = ['invalid_request', 'not_found', 'conflict'];

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
@ApiExcludeController()
@UseGuards(ConsoleCsrfGuard, SignedInGuard)
@Controller('console')
export class ConsoleComplianceController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('compliance')
  async page(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Query() query: CompliancePageQuery,
  ): Promise<void> {
    await this.render(request, reply, query, {});
  }

  @Post('compliance/sender-ids')
  async requestSenderId(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: SenderIdRequestForm,
  ): Promise<void> {
    formToken(body);
    const { account } = signedIn(request);
    const form = { sender_id: field(body, 'sender_id'), sample_message: rawField(body, 'sample_message') };
    const refused = await this.attempt(() =>
      this.commands.execute(new RequestSenderId(account.id, form.sender_id, form.sample_message)),
    );
    if (refused) return this.render(request, reply, {}, { senderIdError: refused, senderIdForm: form }, 400);
    redirect(reply, '/console/compliance');
  }

  @Post('compliance/opt-outs')
  async addOptOut(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: OptOutForm,
  ): Promise<void> {
    formToken(body);
    const { walletId } = signedIn(request);
    const phoneNumber = field(body, 'phone_number');
    const refused = await this.attempt(() =>
      this.commands.execute(new AddOptOut({ walletId, phoneNumber, source: 'console' })),
    );
    if (refused)
      return this.render(
        request,
        reply,
        {},
        { optOutError: refused, optOutForm: { phone_number: phoneNumber } },
        400,
      );
    redirect(reply, '/console/compliance#opt-outs');
  }

  @Post('compliance/opt-outs/remove')
  async removeOptOut(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: OptOutForm,
  ): Promise<void> {
    formToken(body);
    const { walletId } = signedIn(request);
    const phoneNumber = field(body, 'phone_number');
    // Removed twice (a double click): the second finds nothing to remove, which is what was wanted.
    await this.attempt(() =>
      this.commands.execute(new RemoveOptOut({ walletId, phoneNumber, source: 'console' })),
    );
    redirect(reply, '/console/compliance#opt-outs');
  }

  /** The use case's refusal as a sentence for the form, or null when it was done. */
  private async attempt(run: () => Promise<unknown>): Promise<string | null> {
    try {
      await run();
      return null;
    } catch (error) {
      if (error instanceof DomainError && SHOWN_KINDS.includes(error.kind)) return error.message;
      throw error;
    }
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
    await renderPage(
      request,
      reply,
      this.config.publicUrl,
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
