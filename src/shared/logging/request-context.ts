import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The fields every log line written while serving a request carries. */
export interface RequestLogContext {
  /** Fastify's `request.id` (src/app.setup.ts `genReqId`), also answered as `X-Request-Id`. */
  readonly req_id: string;
}

const storage = new AsyncLocalStorage<RequestLogContext>();

/** The request being served by the code that runs now, if any. */
export const currentRequestContext = (): RequestLogContext | undefined => storage.getStore();

/** Runs `fn` as part of serving `request`: what it logs carries the request id. */
export function runInRequest<T>(request: FastifyRequest, fn: () => T): T {
  return storage.run({ req_id: String(request.id) }, fn);
}

/**
 * Enters the request's context for everything Fastify and Nest run for it: the later hooks,
 * body parsing (Fastify runs its parsers in an AsyncResource of the request), guards, pipes,
 * the handler and whatever they await. A callback-style hook, so that the rest of the chain
 * is called from inside `run`.
 */
export function registerRequestContext(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => runInRequest(request, done));
}
