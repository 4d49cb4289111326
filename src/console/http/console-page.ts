import {
  applyDecorators,
  CanActivate,
  Controller,
  ExecutionContext,
  Inject,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Permission, PERMISSION_ACTIONS, roleCan } from '../../accounts/domain/roles';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { WalletAlerts } from '../../wallet/application/queries/wallet-alerts.query';
import { SwitchableAccounts } from '../../accounts/application/queries/switchable-accounts.query';
import { DomainError, ErrorKind } from '../../shared/domain-error';
import { toErrorResponse } from '../../shared/http/error-body';
import { rememberErrorCode } from '../../shared/http/error-code';
import { ConsoleCsrfGuard, signedIn, SignedInGuard } from './console-auth';
import {
  ALREADY_SENT_CODES,
  ConsolePageError,
  ConsoleRequest,
  formToken,
  PageModel,
  redirect,
  renderPage,
} from './console-http';
import { FormReplays } from './form-replays';
import { OneTimeFlash } from './one-time-flash';

/*
 * The one way a console page is served. A page controller is
 *
 *   @ConsolePages()
 *   export class ConsoleThingsController {
 *     constructor(private readonly page: ConsolePage, private readonly commands: CommandBus) {}
 *
 *     @Get('things')                        // a GET needs `read` unless it says otherwise
 *     list(@Req() request: ConsoleRequest, @Res() reply: FastifyReply) {
 *       return this.page.render(request, reply, 'things', { title: 'Things', nav: 'things' });
 *     }
 *
 *     @Post('things') @Requires('send')      // anything that acts names its permission
 *     add(@Req() request: ConsoleRequest, @Res() reply: FastifyReply, @Body() body: ThingForm) {
 *       return this.page.submit(request, reply, body, {
 *         once: 'add-thing',                   // sent twice, the form acts once
 *         act: async () => { await this.commands.execute(new AddThing(...)); return '/console/things'; },
 *         refused: (refusal) => this.renderList(request, reply, refusal),  // the form again, with why
 *       });
 *     }
 *   }
 *
 * and gets, from the decorator and the service: sign-in (a signed-out visitor goes to the sign-in
 * page), the CSRF check of every form, the role's permission checked on the server (403), the
 * one-time token of every acting form, answers remembered per token, flash values handed to the
 * next page, and the layout's helpers (`it.n`, `it.plural`, `it.time`, `it.can`).
 */

const PERMISSION_METADATA = 'console:permission';
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** The permission a console route needs (API.md, "Teams"). A route that acts must name one. */
export const Requires = (permission: Permission) => SetMetadata(PERMISSION_METADATA, permission);

/**
 * Refuses a signed-in visitor whose role lacks the route's permission. Reading pages need
 * `read`; a route that changes anything and names no permission is refused for everyone, so a
 * forgotten annotation fails closed.
 */
@Injectable()
export class ConsolePermissionGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<ConsoleRequest>();
    const named = this.reflector.getAllAndOverride<Permission | undefined>(PERMISSION_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]);
    const permission = named ?? (SAFE_METHODS.has(request.method) ? 'read' : undefined);
    const { role } = signedIn(request);
    if (permission && roleCan(role, permission)) return true;
    throw new ConsolePageError(
      403,
      'Not allowed',
      permission
        ? `Your role (${role}) cannot ${PERMISSION_ACTIONS[permission]}. Ask the account’s owner or an admin.`
        : 'This page does not say who may use it, so nobody may.',
    );
  }
}

/** Marks a controller whose routes are signed-in console pages under /console. */
export const ConsolePages = (): ClassDecorator =>
  applyDecorators(
    ApiExcludeController(),
    UseGuards(ConsoleCsrfGuard, SignedInGuard, ConsolePermissionGuard),
    Controller('console'),
  );

/** A use case's refusal, to show beside the form that caused it. */
export interface FormRefusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly param: string | null;
}

export interface FormAction {
  /**
   * Remembers the answer under this name per one-time token (FormReplays), so a double click or a
   * resubmitted page acts once. Sends need none: their token is the send's Idempotency-Key.
   */
  readonly once?: string;
  /** Does the work with the form's one-time token; answers where the browser goes next. */
  readonly act: (token: string) => Promise<string>;
  /** Shows the form again with the refusal; without it a refusal is an error page. */
  readonly refused?: (refusal: FormRefusal) => Promise<void>;
  /** Which kinds of refusal go back to the form (default: 400, 402, 409, 422 and 503). */
  readonly shows?: readonly ErrorKind[];
  /** The sentence for a form whose one-time token already acted (a send's key seen again). */
  readonly alreadySent?: string;
}

const SHOWN_BY_DEFAULT: readonly ErrorKind[] = [
  'invalid_request',
  'insufficient_credit',
  'conflict',
  'unprocessable',
  'unavailable',
];

/** Rendering, forms and flash values for console pages (see the example at the top of this file). */
@Injectable()
export class ConsolePage {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly flash: OneTimeFlash,
    private readonly replays: FormReplays,
    private readonly queries: QueryBus,
  ) {}

  /**
   * A view inside the layout, with what every page needs (who is signed in, environment, CSRF,
   * helpers, and the low-balance banner while the wallet's alert stands).
   */
  async render(request: ConsoleRequest, reply: FastifyReply, view: string, model: PageModel, status = 200) {
    const visitor = request.consoleSession ? signedIn(request) : null;
    const [alerts, accounts] = visitor
      ? await Promise.all([
          this.queries.execute(new WalletAlerts(visitor.walletId)),
          this.queries.execute(new SwitchableAccounts(visitor.session.email)),
        ])
      : [null, []];
    return renderPage(
      request,
      reply,
      this.config.publicUrl,
      view,
      { lowBalance: alerts?.alerted ?? null, accounts, ...model },
      status,
    );
  }

  /**
   * A form that acts: its one-time token is checked, the work is done (once per token where
   * `once` is named), and the browser is sent on (POST-redirect-GET). A refusal of a kind in
   * `shows` goes back to the form; an unknown id is a 404 page; anything else an error page.
   */
  async submit(
    request: ConsoleRequest,
    reply: FastifyReply,
    body: unknown,
    action: FormAction,
  ): Promise<void> {
    const token = formToken(body);
    let next: string;
    try {
      const act = () => action.act(token);
      next = action.once
        ? await this.replays.once(signedIn(request).session.handle, action.once, token, act)
        : await act();
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      rememberErrorCode(request, error.code); // for the send metrics, as the API's refusals are
      if (ALREADY_SENT_CODES.has(error.code))
        throw new ConsolePageError(
          409,
          'This form was already sent',
          action.alreadySent ?? 'This form was already sent once, so it was not sent again.',
        );
      if (action.refused && (action.shows ?? SHOWN_BY_DEFAULT).includes(error.kind))
        return action.refused(refusalOf(error));
      if (error.kind === 'not_found') throw notFoundPage();
      throw error;
    }
    redirect(reply, next);
  }

  /** The item a detail page shows, or a 404 page when the use case knows no such id here. */
  async found<T>(read: () => Promise<T>, what = 'item'): Promise<T> {
    try {
      return await read();
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') throw notFoundPage(what);
      throw error;
    }
  }

  /** Hands a value to the next page this session opens (POST-redirect-GET), once. */
  putFlash(request: ConsoleRequest, slot: string, value: unknown): void {
    this.flash.put(signedIn(request).session.handle, slot, value);
  }

  /** The value put for this session's next page, taken (so gone on reload); null when none. */
  takeFlash<T>(request: ConsoleRequest, slot: string): T | null {
    return this.flash.take<T>(signedIn(request).session.handle, slot);
  }
}

export const notFoundPage = (what = 'item') =>
  new ConsolePageError(404, 'Not found', `There is no such ${what} in your account.`);

function refusalOf(error: DomainError): FormRefusal {
  return {
    status: toErrorResponse(error, '').status,
    code: error.code,
    message: error.message,
    param: error.param ?? null,
  };
}
