import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import type { Actor } from '../../shared/actor';
import { RateLimiter } from '../../shared/http/rate-limiter';
import { csrfTokenMatches } from './csrf';
import { VisitorBySession } from '../application/queries/visitor-by-session.query';
import { readCookie } from './cookies';
import {
  ConsolePageError,
  ConsoleRedirect,
  ConsoleRequest,
  cookieName,
  PRE_SESSION_COOKIE,
  SESSION_COOKIE,
} from './console-http';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Loads the signed-in visitor (if any) onto the request. */
@Injectable()
export class ConsoleVisitor {
  constructor(
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A console cookie's value, under its name on this request (`__Host-` over https). */
  cookie(request: ConsoleRequest, base: string): string | undefined {
    return readCookie(request, cookieName(base, request, this.config.publicUrl));
  }

  async load(request: ConsoleRequest): Promise<void> {
    if (request.consoleVisitorLoaded) return;
    request.consoleVisitorLoaded = true;
    const visitor = await this.queries.execute(new VisitorBySession(this.cookie(request, SESSION_COOKIE)));
    if (visitor) {
      request.consoleSession = visitor.session;
      request.consoleAccount = visitor.account;
      request.consoleRole = visitor.role;
    }
  }
}

/**
 * On every console controller: loads the visitor, and refuses any state-changing request
 * whose `_csrf` field does not match the token of the visitor's session (or, signed out,
 * of their pre-session cookie), compared in constant time.
 */
@Injectable()
export class ConsoleCsrfGuard implements CanActivate {
  constructor(private readonly visitor: ConsoleVisitor) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ConsoleRequest>();
    await this.visitor.load(request);
    if (SAFE_METHODS.has(request.method)) return true;
    const submitted = (request.body as Record<string, unknown> | undefined)?._csrf;
    const secrets = [request.consoleSession?.id, this.visitor.cookie(request, PRE_SESSION_COOKIE)];
    if (secrets.some((secret) => csrfTokenMatches(secret, submitted))) return true;
    throw new ConsolePageError(
      403,
      'This form has expired',
      'The form was sent without a valid security token, so nothing was changed. Go back, reload the page and try again.',
    );
  }
}

/**
 * On the pages behind sign-in: a signed-out visitor is sent to the sign-in page, and a signed-in
 * session's requests are counted against its rate limit (RATE_LIMIT_PER_SESSION_*).
 */
@Injectable()
export class SignedInGuard implements CanActivate {
  constructor(
    private readonly visitor: ConsoleVisitor,
    private readonly limiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.authenticate(context.switchToHttp().getRequest<ConsoleRequest>());
    return true;
  }

  /**
   * The guard's check, from the session cookie alone: routes that take large bodies (the "Send to
   * many" upload and confirm) make it in a hook before their body is read (route-policies.ts).
   * Counted once per request.
   */
  async authenticate(request: ConsoleRequest): Promise<void> {
    await this.visitor.load(request);
    const session = request.consoleSession;
    if (!session) {
      const back = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
      throw new ConsoleRedirect(`/console/signin${back}`);
    }
    if (request.consoleSessionCounted) return;
    request.consoleSessionCounted = true;
    this.limiter.consumeForSession(session.handle);
  }
}

/** The signed-in session and account; only on routes behind SignedInGuard. */
export function signedIn(request: ConsoleRequest) {
  if (!request.consoleSession || !request.consoleAccount) throw new ConsoleRedirect('/console/signin');
  const environment = request.consoleSession.environment;
  const walletId = request.consoleAccount.wallets[environment];
  return {
    session: request.consoleSession,
    account: request.consoleAccount,
    role: request.consoleRole ?? 'viewer',
    environment,
    walletId,
    /** Who a send from this page is: the session's wallet, as an API key of it would be. */
    sender: { mode: 'wallet', walletId, accountId: request.consoleAccount.id, environment } as const,
    /** Who acts, as the events that record an action (and the audit log) name them. */
    actor: {
      type: 'member',
      id: request.consoleSession.memberId,
      email: request.consoleSession.email,
      ip: request.ip,
    } as const satisfies Actor,
  };
}

/** A `next` target after sign-in: only a console path of this site. */
export function safeNext(raw: unknown): string {
  if (typeof raw !== 'string' || !/^\/console(\/[A-Za-z0-9_\-/?=&%.]*)?$/.test(raw) || raw.includes('..'))
    return '/console';
  if (
    raw.startsWith('/console/signin') ||
    raw.startsWith('/console/signout') ||
    raw.startsWith('/console/signup')
  )
    return '/console';
  return raw;
}
