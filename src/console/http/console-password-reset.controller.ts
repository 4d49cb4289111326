import { Body, Controller, Get, Inject, Logger, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { RequestPasswordReset } from '../../accounts/application/commands/request-password-reset.command';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { DomainError } from '../../shared/domain-error';
import { PerAddressRateLimit } from '../../shared/http/rate-limiter';
import { formatWait } from '../../shared/wording';
import { CompletePasswordReset } from '../application/commands/complete-password-reset.command';
import { ConsoleCsrfGuard } from './console-auth';
import { ForgotPasswordForm, ResetPasswordForm, ResetPasswordPageQuery } from './console-forms.dto';
import { ConsolePageError, ConsoleRequest, field, rawField, renderPage } from './console-http';
import { PasswordResetThrottle } from './password-reset-throttle';

/**
 * "Forgot password?" (signed out): a one-time link valid 30 minutes, by mail. The answer is the
 * same whether or not the address has an account; using the link sets the password and ends every
 * session of the account.
 */
@ApiExcludeController()
@UseGuards(ConsoleCsrfGuard)
@Controller('console')
export class ConsolePasswordResetController {
  private readonly logger = new Logger('password-reset');

  constructor(
    private readonly commands: CommandBus,
    private readonly throttle: PasswordResetThrottle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('forgot-password')
  async forgotPage(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    await renderPage(request, reply, this.config.publicUrl, 'forgot-password', {
      title: 'Forgot password',
      nav: 'signin',
    });
  }

  @Post('forgot-password')
  @UseGuards(PerAddressRateLimit)
  async forgot(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: ForgotPasswordForm,
  ): Promise<void> {
    const email = field(body, 'email');
    const retryAfter = this.throttle.take(request.ip);
    if (retryAfter > 0) {
      throw new ConsolePageError(
        429,
        'Too many requests',
        `Too many password resets were asked from your address. Try again in ${formatWait(retryAfter)}.`,
        { 'retry-after': String(retryAfter) },
      );
    }
    // Not awaited: an address with an account takes one append longer than one without, and the
    // answer's timing must not tell them apart. The request is recorded (or not) in the background.
    void this.commands
      .execute(new RequestPasswordReset(email, request.ip))
      .catch((error: Error) => this.logger.error(`password reset request not recorded: ${error.message}`));
    await renderPage(request, reply, this.config.publicUrl, 'forgot-password', {
      title: 'Forgot password',
      nav: 'signin',
      sent: true,
      email,
    });
  }

  @Get('reset-password')
  async resetPage(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Query() query: ResetPasswordPageQuery,
  ): Promise<void> {
    await renderPage(request, reply, this.config.publicUrl, 'reset-password', {
      title: 'Choose a new password',
      nav: 'signin',
      token: query.token ?? '',
    });
  }

  @Post('reset-password')
  @UseGuards(PerAddressRateLimit)
  async reset(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: ResetPasswordForm,
  ): Promise<void> {
    const token = field(body, 'token');
    try {
      await this.commands.execute(new CompletePasswordReset(token, rawField(body, 'password')));
    } catch (error) {
      if (!(error instanceof DomainError) || error.kind !== 'invalid_request') throw error;
      return renderPage(
        request,
        reply,
        this.config.publicUrl,
        'reset-password',
        {
          title: 'Choose a new password',
          nav: 'signin',
          token,
          error: error.message,
          expired: error.code === 'reset_link_invalid',
        },
        400,
      );
    }
    await renderPage(request, reply, this.config.publicUrl, 'signin', {
      title: 'Sign in',
      nav: 'signin',
      next: '/console',
      notice: 'Your new password is set, and every session of your login has ended. Sign in with it.',
    });
  }
}
