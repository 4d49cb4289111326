import { Body, Controller, Get, Inject, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { InvitationByToken } from '../../accounts/application/queries/invitation-by-token.query';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { DomainError } from '../../shared/domain-error';
import { PerAddressRateLimit } from '../../shared/http/rate-limiter';
import { JoinAccount } from '../application/commands/join-account.command';
import { ConsoleCsrfGuard } from './console-auth';
import { AcceptInvitationForm, InvitationPageQuery } from './console-forms.dto';
import { ConsoleRequest, field, rawField, redirect, renderPage, setSessionCookie } from './console-http';

/**
 * The link of an invitation mail (signed out, or signed in as anyone): who invited whom as what,
 * and a password to accept with, a new one or the login's own when the e-mail has one. Accepting
 * signs the person in to the account they joined.
 */
@ApiExcludeController()
@UseGuards(ConsoleCsrfGuard)
@Controller('console')
export class ConsoleInvitationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('invitations')
  async invitation(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Query() query: InvitationPageQuery,
  ): Promise<void> {
    await this.render(request, reply, query.token ?? '');
  }

  @Post('invitations/accept')
  @UseGuards(PerAddressRateLimit)
  async accept(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: AcceptInvitationForm,
  ): Promise<void> {
    const token = field(body, 'token');
    try {
      const session = await this.commands.execute(
        new JoinAccount(token, rawField(body, 'password'), request.ip, request.consoleSession ?? null),
      );
      setSessionCookie(request, reply, this.config.publicUrl, session);
      redirect(reply, '/console');
    } catch (error) {
      if (!(error instanceof DomainError) || error.kind !== 'invalid_request') throw error;
      await this.render(request, reply, token, error.message, 400);
    }
  }

  private async render(
    request: ConsoleRequest,
    reply: FastifyReply,
    token: string,
    error: string | null = null,
    status = 200,
  ): Promise<void> {
    const invitation = await this.queries.execute(new InvitationByToken(token));
    await renderPage(
      request,
      reply,
      this.config.publicUrl,
      'invitation',
      { title: 'Join an account', nav: 'signin', invitation, token, error },
      status,
    );
  }
}
