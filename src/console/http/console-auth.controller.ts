import { Body, Controller, Get, Inject, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { DomainError } from '../../shared/domain-error';
import { formatWait } from '../../shared/wording';
import { PerAddressRateLimit } from '../../shared/http/rate-limiter';
import { SignIn } from '../application/commands/sign-in.command';
import { SignOut } from '../application/commands/sign-out.command';
import { SignUp } from '../application/commands/sign-up.command';
import type { ConsoleSession } from '../application/console-sessions.service';
import { SignUpThrottle } from './sign-up-throttle';
import { OneTimeFlash } from './one-time-flash';
import { ConsoleCsrfGuard, safeNext } from './console-auth';
import { SignInForm, SignInPageQuery, SignUpForm } from './console-forms.dto';
import { clearCookie } from './cookies';
import {
  ConsolePageError,
  ConsoleRequest,
  cookieName,
  cookieOptions,
  field,
  rawField,
  redirect,
  renderPage,
  SESSION_COOKIE,
  setSessionCookie,
} from './console-http';

/** Sign up, sign in and sign out; `/` leads to the console. */
@ApiExcludeController()
@UseGuards(ConsoleCsrfGuard)
@Controller()
export class ConsoleAuthController {
  constructor(
    private readonly commands: CommandBus,
    private readonly flash: OneTimeFlash,
    private readonly signUps: SignUpThrottle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  root(@Res() reply: FastifyReply): void {
    void reply.status(302).header('location', '/console').send();
  }

  @Get('console/signin')
  async signInPage(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Query() query: SignInPageQuery,
  ): Promise<void> {
    const next = query.next;
    if (request.consoleSession) return redirect(reply, safeNext(next));
    await renderPage(request, reply, this.config.publicUrl, 'signin', {
      title: 'Sign in',
      nav: 'signin',
      next: safeNext(next),
    });
  }

  @Post('console/signin')
  @UseGuards(PerAddressRateLimit)
  async signIn(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: SignInForm,
  ): Promise<void> {
    const email = field(body, 'email');
    const next = safeNext(field(body, 'next'));
    const signedIn = await this.commands.execute(
      new SignIn(email, rawField(body, 'password'), request.ip, request.consoleSession ?? null),
    );
    if (signedIn.outcome === 'throttled') {
      throw new ConsolePageError(
        429,
        'Too many sign-in attempts',
        `Sign-in for this email is paused after repeated failures. Try again in ${formatWait(signedIn.retryAfterSeconds)}.`,
        { 'retry-after': String(signedIn.retryAfterSeconds) },
      );
    }
    if (signedIn.outcome === 'no_account') {
      return renderPage(
        request,
        reply,
        this.config.publicUrl,
        'signin',
        {
          title: 'Sign in',
          nav: 'signin',
          next,
          email,
          error:
            'Your login is not a member of any account any more. Ask an account’s owner or an admin to invite you again.',
        },
        403,
      );
    }
    if (signedIn.outcome === 'refused') {
      return renderPage(request, reply, this.config.publicUrl, 'signin', {
        title: 'Sign in',
        nav: 'signin',
        next,
        email,
        error: 'That email and password do not match an account.',
      });
    }
    this.setSessionCookie(request, reply, signedIn.session);
    redirect(reply, next);
  }

  @Get('console/signup')
  async signUpPage(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    if (request.consoleSession) return redirect(reply, '/console');
    await renderPage(request, reply, this.config.publicUrl, 'signup', { title: 'Sign up', nav: 'signup' });
  }

  @Post('console/signup')
  @UseGuards(PerAddressRateLimit)
  async signUp(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: SignUpForm,
  ): Promise<void> {
    const email = field(body, 'email');
    const retryAfter = this.signUps.take(request.ip);
    if (retryAfter > 0) {
      throw new ConsolePageError(
        429,
        'Too many sign-ups',
        `Too many accounts were created from your address. Try again in ${formatWait(retryAfter)}.`,
        { 'retry-after': String(retryAfter) },
      );
    }
    try {
      const session = await this.commands.execute(
        new SignUp(email, rawField(body, 'password'), request.consoleSession ?? null, request.ip),
      );
      this.setSessionCookie(request, reply, session);
      redirect(reply, '/console');
    } catch (error) {
      if (!(error instanceof DomainError) || (error.kind !== 'invalid_request' && error.kind !== 'conflict'))
        throw error;
      await renderPage(
        request,
        reply,
        this.config.publicUrl,
        'signup',
        { title: 'Sign up', nav: 'signup', email, error: error.message },
        error.kind === 'conflict' ? 409 : 400,
      );
    }
  }

  @Post('console/signout')
  async signOut(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    if (request.consoleSession) {
      await this.commands.execute(new SignOut(request.consoleSession));
      this.flash.dropSession(request.consoleSession.handle);
    }
    clearCookie(
      reply,
      cookieName(SESSION_COOKIE, request, this.config.publicUrl),
      cookieOptions(request, this.config.publicUrl),
    );
    redirect(reply, '/console/signin');
  }

  private setSessionCookie(request: ConsoleRequest, reply: FastifyReply, session: ConsoleSession): void {
    setSessionCookie(request, reply, this.config.publicUrl, session);
  }
}
