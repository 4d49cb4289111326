import { Logger } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';

const access = new Logger('access');

/** Route parameters whose values are personal data: the line names the parameter instead. */
const PERSONAL_PARAMS: ReadonlySet<string> = new Set(['phone_number']);
/** A path segment that is a phone number however it was written (`+233…`, `%2B233…`, spaced). */
const PHONE_NUMBER = /^\+?\d{6,15}$/;
const REDACTED = '***';

/**
 * One `info` line per answered request: method, path (without its query), route, status and
 * duration. Registered only when LOG_LEVEL lets info lines through, so at `error` (the bench,
 * a quiet production) it costs nothing at all. Headers are never logged, nor phone numbers in
 * paths (`DELETE /v1/opt_outs/:phone_number`, issue 28): see loggedPath.
 */
export function registerAccessLog(fastify: FastifyInstance): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const query = request.url.indexOf('?');
    const route = request.routeOptions?.url ?? null;
    const path = loggedPath(query === -1 ? request.url : request.url.slice(0, query), route);
    access.log({
      msg: `${request.method} ${path} ${reply.statusCode}`,
      req_id: String(request.id),
      method: request.method,
      path,
      route,
      status: reply.statusCode,
      duration_ms: Math.round(reply.elapsedTime * 100) / 100,
    });
    done();
  });
}

/**
 * The path as a log line may show it: a segment the route names as personal data is written as
 * the route names it (`/v1/opt_outs/:phone_number`), and any other segment that is a phone number
 * (an unknown route's, a 404's) as `***`.
 */
export function loggedPath(path: string, route: string | null): string {
  const template = route?.split('/') ?? [];
  return path
    .split('/')
    .map((segment, i) => {
      const named = template[i];
      if (named?.startsWith(':') && PERSONAL_PARAMS.has(named.slice(1))) return named;
      return PHONE_NUMBER.test(decoded(segment).replace(/[\s().-]/g, '')) ? REDACTED : segment;
    })
    .join('/');
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
