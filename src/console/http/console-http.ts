import type { FastifyReply, FastifyRequest } from 'fastify';
import '@fastify/view';
import type { QueryBus } from '@nestjs/cqrs';
import { WalletBalance } from '../../wallet/application/queries/wallet-balance.query';
import type { AccountView } from '../../accounts/projections/accounts.projection';
import { CookieOptions, readCookie, setCookie } from './cookies';
import type { ConsoleSession } from '../application/console-sessions.service';
import { sendAtFromForm } from './outcome-refresh';
import { csrfTokenFor, isPreSessionSecret, newPreSessionSecret } from './csrf';
import { randomToken } from '../../shared/ids';
import { describeCost, messageCost } from '../../messaging/domain/message-cost';
import { formatCount } from '../../shared/money';
import { formatDate, formatMonth, formatTime, label, plural, TIME_ZONE_NAME } from '../../shared/wording';
import { Permission, Role, roleCan } from '../../accounts/domain/roles';
import { navFor } from './console-nav';

export const SESSION_COOKIE = 'sms_console_session';
/** A signed-out visitor's random secret: the CSRF token of the sign-in, sign-up and try-out forms derives from it. */
export const PRE_SESSION_COOKIE = 'sms_console_pre';

/**
 * A console cookie's name on this request: with the `__Host-` prefix where cookies are Secure, so
 * the browser accepts it only from this very host over https, with Path=/ and no Domain (a
 * sibling subdomain cannot plant or overwrite it); without it over plain http, where browsers
 * refuse `__Host-` cookies.
 */
export function cookieName(base: string, request: FastifyRequest, publicUrl: string): string {
  return secureCookies(request, publicUrl) ? `__Host-${base}` : base;
}

export type ConsoleRequest = FastifyRequest & {
  consoleSession?: ConsoleSession;
  consoleAccount?: AccountView;
  /** The signed-in member's role in the account, which every console route checks. */
  consoleRole?: Role;
  /** The pre-session secret this response uses (set once per request). */
  consolePreSecret?: string;
  consoleVisitorLoaded?: boolean;
  /** Counted against the session's rate limit already (SignedInGuard). */
  consoleSessionCounted?: boolean;
};

/** Paths whose errors are HTML pages rather than API.md's JSON bodies (`/` itself only ever redirects). */
export function isConsolePath(url: string): boolean {
  const path = url.split('?')[0];
  return path === '/console' || path.startsWith('/console/') || path === '/try' || path.startsWith('/try/');
}

/** A refusal shown as an HTML page with this status. */
export class ConsolePageError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'ConsolePageError';
  }
}

/** Raised where the visitor must go elsewhere first (sign in). */
export class ConsoleRedirect extends Error {
  constructor(readonly location: string) {
    super(`Redirect to ${location}`);
    this.name = 'ConsoleRedirect';
  }
}

/** Cookies are Secure when the request came over TLS or the service's public URL is https. */
export function secureCookies(request: FastifyRequest, publicUrl: string): boolean {
  return request.protocol === 'https' || publicUrl.startsWith('https:');
}

export function cookieOptions(
  request: FastifyRequest,
  publicUrl: string,
  maxAgeSeconds?: number,
): CookieOptions {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: secureCookies(request, publicUrl),
    ...(maxAgeSeconds !== undefined ? { maxAge: maxAgeSeconds } : {}),
  };
}

/** A fresh session id at every sign-in (no fixation): the use case ended the old one, if any. */
export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  publicUrl: string,
  session: ConsoleSession,
): void {
  const maxAgeSeconds = Math.floor((Date.parse(session.expiresAt) - Date.now()) / 1000);
  setCookie(
    reply,
    cookieName(SESSION_COOKIE, request, publicUrl),
    session.id,
    cookieOptions(request, publicUrl, maxAgeSeconds),
  );
}

/**
 * The CSRF token to put in this page's forms: the session's when signed in, else the
 * pre-session cookie's (created here when the visitor has none yet).
 */
export function csrfTokenForPage(request: ConsoleRequest, reply: FastifyReply, publicUrl: string): string {
  if (request.consoleSession) return csrfTokenFor(request.consoleSession.id);
  const name = cookieName(PRE_SESSION_COOKIE, request, publicUrl);
  let secret = request.consolePreSecret ?? readCookie(request, name);
  if (!isPreSessionSecret(secret)) {
    secret = newPreSessionSecret();
    setCookie(reply, name, secret, cookieOptions(request, publicUrl));
  }
  request.consolePreSecret = secret;
  return csrfTokenFor(secret);
}

/**
 * Console pages are never cached (a page may show a key once). The content security policy
 * and the framing and sniffing headers come from the shared security headers (helmet).
 */
export function pageSecurityHeaders(reply: FastifyReply): void {
  reply.header('cache-control', 'no-store');
  reply.header('pragma', 'no-cache');
}

/**
 * Helpers every view may call, so every page words things one way: numbers for people
 * (`it.n(20000)` is "20,000"), counted nouns (`it.plural(1, 'credit')` is "1 credit"), times and
 * days in Ghana time (`it.time(iso)`, `it.date(iso)`, `it.monthName('2026-11')`; the layout names
 * the zone once), API values
 * as labels (`it.label('transactional')` is "Transactional"), and the
 * cost of a message body as the send forms show it before the script takes over (`it.costOf(text)`).
 */
export const VIEW_HELPERS = {
  n: formatCount,
  plural,
  time: formatTime,
  date: formatDate,
  monthName: formatMonth,
  label,
  timeZone: TIME_ZONE_NAME,
  costOf: (message: unknown) => {
    const cost = messageCost(typeof message === 'string' ? message : '');
    return { ...cost, text: describeCost(cost) };
  },
} as const;

export interface PageModel {
  readonly title: string;
  /** Which navigation entry is current. */
  readonly nav?: string;
  readonly [key: string]: unknown;
}

/**
 * What the layout needs on every page, error pages included: who is signed in and may do what,
 * the environment, the CSRF token of its forms and the view helpers.
 */
export function layoutModel(request: ConsoleRequest, reply: FastifyReply, publicUrl: string) {
  const role = request.consoleSession ? request.consoleRole : undefined;
  return {
    nav: '',
    refreshSeconds: null,
    // Who is signed in (one person may belong to several accounts), and the account they are in.
    account:
      request.consoleAccount && request.consoleSession
        ? {
            email: request.consoleSession.email,
            id: request.consoleAccount.id,
            owner: request.consoleAccount.email,
          }
        : null,
    accounts: [] as readonly { accountId: string; owner: string; role: string }[],
    environment: request.consoleSession?.environment ?? 'TEST',
    currentPath: request.url,
    role: role ?? null,
    /** Whether the visitor's role may do this: the page hides what the server would refuse. */
    can: (permission: Permission) => (role ? roleCan(role, permission) : false),
    navEntries: navFor(role),
    ...VIEW_HELPERS,
    csrf: csrfTokenForPage(request, reply, publicUrl),
  };
}

/** Renders a view inside the layout, with what every page needs (who is signed in, environment, CSRF token). */
export async function renderPage(
  request: ConsoleRequest,
  reply: FastifyReply,
  publicUrl: string,
  view: string,
  model: PageModel,
  status = 200,
): Promise<void> {
  const layout = layoutModel(request, reply, publicUrl);
  const html = await reply.viewAsync(view, { ...layout, ...model, csrf: layout.csrf, once: newFormToken() });
  pageSecurityHeaders(reply);
  await reply.status(status).type('text/html; charset=utf-8').send(html);
}

export function redirect(reply: FastifyReply, location: string): void {
  pageSecurityHeaders(reply);
  void reply.status(303).header('location', location).send();
}

/** 131 bits of base62, in the hidden `_once` field of every form that acts (FormReplays). */
const FORM_TOKEN_LENGTH = 22;
const FORM_TOKEN_SHAPE = /^[0-9A-Za-z]{22}$/;

export const newFormToken = () => randomToken(FORM_TOKEN_LENGTH);

/** The one-time token a form was rendered with; a form without one is refused (a stale page or a script). */
export function formToken(body: unknown): string {
  const token = (body as Record<string, unknown> | null | undefined)?._once;
  if (typeof token === 'string' && FORM_TOKEN_SHAPE.test(token)) return token;
  throw new ConsolePageError(
    400,
    'This form has expired',
    'The form was sent without its one-time token, so nothing was done. Go back, reload the page and try again.',
  );
}

/** A form field exactly as sent ('' when absent or not text): passwords and message bodies keep their spaces. */
export function rawField(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** A form field as a trimmed string ('' when absent or not text). */
export function field(body: unknown, name: string): string {
  return rawField(body, name).trim();
}

/**
 * The send form's fields as the send path takes them (console send and the try-out), with its
 * "Send at" (Ghana time) as `send_at` when one is given.
 */
export function sendFormInput(
  body: unknown,
  type: string,
): { to: string; sender_id: string; message: string; type: string; send_at?: string } {
  const sendAt = sendAtFromForm(field(body, 'send_at'));
  return {
    to: field(body, 'to'),
    sender_id: field(body, 'sender_id'),
    message: rawField(body, 'message'),
    type,
    ...(sendAt === undefined ? {} : { send_at: sendAt }),
  };
}

/** A send form's one-time token again: changed, or while the first is still on its way (its Idempotency-Key). */
export const ALREADY_SENT_CODES: ReadonlySet<string> = new Set([
  'idempotency_key_reused',
  'idempotency_request_in_progress',
]);

/** What the wallet has left to send, as the pages show it (0 before its balance is projected). */
export async function walletSmsLeft(queries: QueryBus, walletId: string): Promise<number> {
  return (await queries.execute(new WalletBalance(walletId)))?.smsLeft ?? 0;
}
