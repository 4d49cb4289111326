import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorCodeOf } from '../http/error-code';
import type { SendEndpoint, SendMetrics } from './send.metrics';

const SEND_ROUTES = new Map<string, SendEndpoint>([
  ['/v1/messages', 'messages'],
  ['/v1/messages/batch', 'batch'],
  ['/v1/sandbox/messages', 'sandbox'],
]);

/** Set on the request by the API key guard (accounts/http/api-key.guard.ts) once the key is known. */
type MaybeAuthenticated = FastifyRequest & { principal?: { environment?: string } };

/**
 * Counts every answered send at the HTTP edge, whatever answered it (controller, guard, a hook,
 * Fastify's body limit): accepted, replayed, or refused by the code that sendError noted on
 * the request; and how long the answer took.
 */
export function registerSendMetrics(fastify: FastifyInstance, metrics: SendMetrics): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const endpoint = request.method === 'POST' ? SEND_ROUTES.get(request.routeOptions?.url ?? '') : undefined;
    if (endpoint) metrics.answered(answeredSend(endpoint, request, reply));
    done();
  });
}

export function answeredSend(endpoint: SendEndpoint, request: FastifyRequest, reply: FastifyReply) {
  return {
    endpoint,
    environment: environmentOf(endpoint, request),
    status: reply.statusCode,
    code: errorCodeOf(request),
    replayed: reply.getHeader('idempotent-replayed') === 'true',
    seconds: reply.elapsedTime / 1000,
  };
}

function environmentOf(endpoint: SendEndpoint, request: MaybeAuthenticated): string {
  if (request.principal?.environment) return request.principal.environment;
  if (endpoint === 'sandbox') return 'TEST';
  // Refused before the key was looked up (401, 415, 413…): its prefix still says which.
  const authorization = request.headers.authorization ?? '';
  if (authorization.includes(' sms_test_')) return 'TEST';
  if (authorization.includes(' sms_live_')) return 'LIVE';
  return 'unknown';
}
