import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../domain-error';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** A body-carrying API request must be JSON (API.md: anything else is 415). */
export function requireJsonBodies(fastify: FastifyInstance, apiPrefixes: readonly string[]): void {
  fastify.addHook('onRequest', async (request: FastifyRequest) => {
    if (!BODY_METHODS.has(request.method) || !apiPrefixes.some((p) => request.url.startsWith(p))) return;
    const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
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
