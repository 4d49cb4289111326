import { Body, Controller, Get, Inject, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AccountsService } from '../../accounts/application/accounts.service';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { DomainError } from '../../shared/domain-error';
import { RateLimiter } from '../../shared/http/rate-limiter';
import { ConsoleSessions, SESSION_TTL_MS } from '../application/console-sessions.service';
import { OneTimeFlash } from '../application/one-time-flash';
import { SignInThrottle } from '../application/sign-in-throttle';
import { ConsoleCsrfGuard, safeNext } from './console-auth';
import { clearCookie, setCookie } from './cookies';
import {
  ConsolePageError,
  ConsoleRequest,
  cookieOptions,
  field,
  rawField,
  redirect,
  renderPage,
  SESSION_COOKIE,
} from './console-http';

/** Sign up, sign in and sign out; `/` leads to the console. */
@ApiExcludeController()
@UseGuards(ConsoleCsrfGuard)
@Controller()
export class ConsoleAuthController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly sessions: ConsoleSessions,
    private readonly throttle: SignInThrottle,
    private readonly limiter: RateLimiter,
    private readonly flash: OneTimeFlash,
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
    @Query('next') next?: string,
  ): Promise<void> {
    if (request.consoleSession) return redirect(reply, safeNext(next));
    await renderPage(request, reply, this.config.publicUrl, 'signin', {
      title: 'Sign in',
      nav: 'signin',
      next: safeNext(next),
    });
  }

  @Post('console/signin')
  async signIn(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ): Promise<void> {
    this.limitAddress(request);
    const email = field(body, 'email');
    const password = rawField(body, 'password');
    const next = safeNext(field(body, 'next'));
    const retryAfter = this.throttle.retryAfterSeconds(email, request.ip);
    if (retryAfter > 0) {
      throw new ConsolePageError(
        429,
        'Too many sign-in attempts',
        `Sign-in for this email is paused after repeated failures. Try again in ${Math.ceil(retryAfter / 60)} minute(s).`,
        { 'retry-after': String(retryAfter) },
      );
    }
    const account = email && password ? await this.accounts.authenticate(email, password) : null;
    if (!account) {
      this.throttle.recordFailure(email, request.ip);
      return renderPage(request, reply, this.config.publicUrl, 'signin', {
        title: 'Sign in',
        nav: 'signin',
        next,
        email,
        error: 'That email and password do not match an account.',
      });
    }
    this.throttle.recordSuccess(email, request.ip);
    await this.startSession(request, reply, account.id);
    redirect(reply, next);
  }

  @Get('console/signup')
  async signUpPage(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    if (request.consoleSession) return redirect(reply, '/console');
    await renderPage(request, reply, this.config.publicUrl, 'signup', { title: 'Sign up', nav: 'signup' });
  }

  @Post('console/signup')
  async signUp(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ): Promise<void> {
    this.limitAddress(request);
    const email = field(body, 'email');
    const password = rawField(body, 'password');
    try {
      const account = await this.accounts.register(email, password);
      await this.startSession(request, reply, account.id);
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
      await this.sessions.end(request.consoleSession);
      this.flash.dropSession(request.consoleSession.handle);
    }
    clearCookie(reply, SESSION_COOKIE, cookieOptions(request, this.config.publicUrl));
    redirect(reply, '/console/signin');
  }

  /** A fresh session id at every sign-in (no fixation); the old one, if any, ends. */
  private async startSession(request: ConsoleRequest, reply: FastifyReply, accountId: string): Promise<void> {
    if (request.consoleSession) await this.sessions.end(request.consoleSession);
    const session = await this.sessions.start(accountId);
    setCookie(
      reply,
      SESSION_COOKIE,
      session.id,
      cookieOptions(request, this.config.publicUrl, Math.floor(SESSION_TTL_MS / 1000)),
    );
  }

  private limitAddress(request: ConsoleRequest): void {
    this.limiter.consumeForAddress(request.ip);
  }
}
