import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../domain-error';
import { DomainErrorWithHeaders } from './error-body';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * A body-carrying API request must be JSON (API.md: anything else is 415), unless its route names
 * the types it takes instead in its route config (`@RouteConfig({ contentTypes: ['text/csv'] })`:
 * POST /v1/contact_imports alone), which are then the only ones it takes.
 */
export function requireJsonBodies(fastify: FastifyInstance, apiPrefixes: readonly string[]): void {
  fastify.addHook('onRequest', async (request: FastifyRequest) => {
    if (!BODY_METHODS.has(request.method) || !apiPrefixes.some((p) => request.url.startsWith(p))) return;
    const hasBody =
      Number(request.headers['content-length'] ?? 0) > 0 ||
      request.headers['transfer-encoding'] !== undefined;
    if (!hasBody) return;
    const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const named = (request.routeOptions?.config as { contentTypes?: readonly string[] } | undefined)
      ?.contentTypes;
    if (named) {
      if (named.includes(type)) return;
      throw new DomainError(
        'unsupported_media_type',
        'unsupported_media_type',
        `Send the request body with Content-Type: ${named.join(' or ')}`,
      );
    }
    if (type !== 'application/json' && !type.endsWith('+json')) {
      throw new DomainError(
        'unsupported_media_type',
        'unsupported_media_type',
        'Send the request body as JSON with Content-Type: application/json',
      );
    }
  });
}

/**
 * While the server drains for a graceful stop, requests that arrive on kept-alive connections
 * are refused in API.md's shape (503, Retry-After) instead of Fastify's own body, and the
 * connection is closed so the client reconnects to a running instance.
 */
export function refuseWhileClosing(fastify: FastifyInstance): void {
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });
  fastify.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    throw new DomainErrorWithHeaders(
      new DomainError('unavailable', 'service_unavailable', 'The server is restarting; retry shortly'),
      { 'retry-after': '1' },
    );
  });
}

/**
 * A route may take larger bodies than the server's 16 KiB by naming its own limit in its route
 * config (`@RouteConfig({ bodyLimit })`: POST /v1/messages/batch, 2 MiB). Must be registered
 * before the routes are (configureApp runs before Nest's init).
 */
export function routeBodyLimits(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const limit = (route.config as { bodyLimit?: unknown } | undefined)?.bodyLimit;
    if (typeof limit === 'number') route.bodyLimit = limit;
  });
}

/**
 * Bodies of these types reach their route unread, as the request's stream (`request.body`), for
 * the route to read as it goes (a CSV import of 20 MiB is never held whole). Only routes that name
 * the type in their route config get such a body (requireJsonBodies); they enforce their own limit.
 */
export function streamedBodies(fastify: FastifyInstance, types: readonly string[]): void {
  for (const type of types)
    fastify.addContentTypeParser(type, (_request, payload, done) => done(null, payload));
}
