import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorCodeOf } from '../http/error-code';
import { formSendOf } from './form-send';
import type { AnsweredSend, SendEndpoint, SendMetrics } from './send.metrics';

const SEND_ROUTES = new Map<string, SendEndpoint>([
  ['/v1/messages', 'messages'],
  ['/v1/messages/batch', 'batch'],
  ['/v1/sandbox/messages', 'sandbox'],
  ['/console/send', 'console'],
  ['/console/send-many', 'console_batch'],
  ['/try', 'try'],
]);

/** The web pages' sends: answered with a redirect when they sent, so counted from rememberFormSend. */
const FORM_ENDPOINTS: ReadonlySet<SendEndpoint> = new Set(['console', 'console_batch', 'try']);

/**
 * Set on the request by the API key guard (accounts/http/api-key.guard.ts) once the key is
 * known, or by the console's sign-in guard (the session's environment).
 */
type MaybeAuthenticated = FastifyRequest & {
  principal?: { environment?: string };
  consoleSession?: { environment?: string };
};

/**
 * Counts every answered send at the HTTP edge, whatever answered it (controller, guard, a hook,
 * Fastify's body limit): accepted, replayed, or refused by the code that sendError (or the
 * console's form handling) noted on the request; and how long the answer took. The API's send
 * routes and the web pages that send (the console's Send and Send to many, the try-out) alike.
 */
export function registerSendMetrics(fastify: FastifyInstance, metrics: SendMetrics): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const endpoint = request.method === 'POST' ? SEND_ROUTES.get(request.routeOptions?.url ?? '') : undefined;
    if (endpoint) metrics.answered(answeredSend(endpoint, request, reply));
    done();
  });
}

export function answeredSend(
  endpoint: SendEndpoint,
  request: FastifyRequest,
  reply: FastifyReply,
): AnsweredSend {
  return {
    endpoint,
    environment: environmentOf(endpoint, request),
    status: reply.statusCode,
    code: errorCodeOf(request),
    result: resultOf(endpoint, request, reply),
    seconds: reply.elapsedTime / 1000,
  };
}

function resultOf(
  endpoint: SendEndpoint,
  request: FastifyRequest,
  reply: FastifyReply,
): AnsweredSend['result'] {
  if (FORM_ENDPOINTS.has(endpoint)) {
    // A page's redirect is a sent form, or a signed-out visitor sent to sign in: only the note tells.
    const sent = formSendOf(request);
    if (!sent) return 'refused';
    return sent.replayed ? 'replayed' : 'accepted';
  }
  if (reply.getHeader('idempotent-replayed') === 'true') return 'replayed';
  // A 2xx with a noted code sent nothing (a batch whose every item was refused: batch_refused).
  return reply.statusCode < 300 && errorCodeOf(request) === undefined ? 'accepted' : 'refused';
}

function environmentOf(endpoint: SendEndpoint, request: MaybeAuthenticated): string {
  if (request.principal?.environment) return request.principal.environment;
  if (endpoint === 'sandbox' || endpoint === 'try') return 'TEST';
  if (request.consoleSession?.environment) return request.consoleSession.environment;
  // Refused before the key was looked up (401, 415, 413…): its prefix still says which.
  const authorization = request.headers.authorization ?? '';
  if (authorization.includes(' sms_test_')) return 'TEST';
  if (authorization.includes(' sms_live_')) return 'LIVE';
  return 'unknown';
}
