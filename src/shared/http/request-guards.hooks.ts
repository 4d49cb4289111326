import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../domain-error';
import { DomainErrorWithHeaders } from './error-body';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** A body-carrying API request must be JSON (API.md: anything else is 415). */
export function requireJsonBodies(fastify: FastifyInstance, apiPrefixes: readonly string[]): void {
  fastify.addHook('onRequest', async (request: FastifyRequest) => {
    if (!BODY_METHODS.has(request.method) || !apiPrefixes.some((p) => request.url.startsWith(p))) return;
    const hasBody =
      Number(request.headers['content-length'] ?? 0) > 0 ||
      request.headers['transfer-encoding'] !== undefined;
    if (!hasBody) return;
    const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
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
