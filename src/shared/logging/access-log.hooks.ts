import { Logger } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';

const access = new Logger('access');

/**
 * One `info` line per answered request: method, path (without its query), route, status and
 * duration. Registered only when LOG_LEVEL lets info lines through, so at `error` (the bench,
 * a quiet production) it costs nothing at all. Headers are never logged.
 */
export function registerAccessLog(fastify: FastifyInstance): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const query = request.url.indexOf('?');
    const path = query === -1 ? request.url : request.url.slice(0, query);
    access.log({
      msg: `${request.method} ${path} ${reply.statusCode}`,
      req_id: String(request.id),
      method: request.method,
      path,
      route: request.routeOptions?.url ?? null,
      status: reply.statusCode,
      duration_ms: Math.round(reply.elapsedTime * 100) / 100,
    });
    done();
  });
}
