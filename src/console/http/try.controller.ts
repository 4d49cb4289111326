import { Body, Controller, Get, Inject, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { SendMessage } from '../../messaging/application/commands/send-message.command';
import { MessageById } from '../../messaging/application/queries/message-by-id.query';
import { SANDBOX_NUMBERS } from '../../messaging/domain/sandbox';
import type { ApiMessage } from '../../messaging/projections/messages.projection';
import { DomainError } from '../../shared/domain-error';
import { PerAddressRateLimit } from '../../shared/http/rate-limiter';
import { rememberErrorCode } from '../../shared/http/error-code';
import { rememberFormSend } from '../../shared/metrics/form-send';
import { ConsoleCsrfGuard } from './console-auth';
import { SendForm } from './console-forms.dto';
import { ConsolePageError, ConsoleRequest, redirect, renderPage, sendFormInput } from './console-http';
import { awaitingOutcome, REFRESH_SECONDS } from './outcome-refresh';

const OUTCOMES: Record<string, string> = {
  '+233200000001': 'ends DELIVERED',
  '+233200000002': 'ends FAILED (undeliverable)',
  '+233200000003': 'ends EXPIRED',
  '+233200000004': 'rejected by the carrier (FAILED before SENT)',
};

/**
 * The public try-out page (no sign-in, no key): sends to a sandbox number through the same
 * service as POST /v1/sandbox/messages, and shows the outcome as it arrives.
 */
@ApiExcludeController()
@UseGuards(ConsoleCsrfGuard)
@Controller('try')
export class TryController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  async page(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.renderForm(request, reply, {});
  }

  @Post()
  @UseGuards(PerAddressRateLimit)
  async send(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: SendForm,
  ): Promise<void> {
    const input = sendFormInput(body, 'transactional');
    try {
      const sent = await this.commands.execute(new SendMessage({ mode: 'sandbox' }, input));
      rememberFormSend(request, false);
      redirect(reply, `/try/messages/${encodeURIComponent(sent.message.id)}`);
    } catch (error) {
      if (error instanceof DomainError) rememberErrorCode(request, error.code);
      if (!(error instanceof DomainError) || error.kind !== 'invalid_request') throw error;
      await this.renderForm(request, reply, { input, error: error.message }, 400);
    }
  }

  @Get('messages/:id')
  @UseGuards(PerAddressRateLimit)
  async message(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
  ): Promise<void> {
    let message: ApiMessage;
    try {
      message = await this.queries.execute(new MessageById(id, 'sandbox'));
    } catch (error) {
      if (!(error instanceof DomainError) || error.kind !== 'not_found') throw error;
      throw new ConsolePageError(404, 'Not found', 'There is no try-out message with this id.');
    }
    const final = !awaitingOutcome([message], Date.now());
    await renderPage(request, reply, this.config.publicUrl, 'message', {
      title: `Try-out message ${message.id}`,
      nav: 'try',
      message,
      final,
      tryout: true,
      refreshSeconds: final ? null : REFRESH_SECONDS,
      backHref: '/try',
      backLabel: 'Send another',
    });
  }

  private async renderForm(
    request: ConsoleRequest,
    reply: FastifyReply,
    extra: { input?: Record<string, string>; error?: string },
    status = 200,
  ) {
    await renderPage(
      request,
      reply,
      this.config.publicUrl,
      'try',
      {
        title: 'Try the SMS API',
        nav: 'try',
        numbers: SANDBOX_NUMBERS.map((number) => ({ number, outcome: OUTCOMES[number] ?? '' })),
        input: extra.input ?? {
          to: SANDBOX_NUMBERS[0],
          sender_id: 'MyShop',
          message: 'Hello from the sandbox',
        },
        error: extra.error ?? null,
      },
      status,
    );
  }
}
