import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { runInRequest } from '../logging/request-context';
import { toErrorResponse } from './error-body';
import { rememberErrorCode } from './error-code';

/** The one place where errors become responses: every controller's refusals pass here. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    sendError(reply, request, exception, this.logger);
  }
}

export function sendError(
  reply: FastifyReply,
  request: FastifyRequest,
  exception: unknown,
  logger: Logger,
): void {
  const rawBody = (request as { rawBody?: unknown }).rawBody;
  const response = toErrorResponse(
    exception,
    String(request.id),
    Buffer.isBuffer(rawBody) ? rawBody : undefined,
  );
  rememberErrorCode(request, response.body.error.code);
  if (response.status >= 500) {
    // The stack goes to the log under the request id (also for errors raised before the
    // request's context was entered); the caller only sees the id.
    runInRequest(request, () =>
      logger.error(
        `${request.method} ${request.routeOptions?.url ?? 'unknown route'} ${request.id}`,
        (exception as Error)?.stack,
      ),
    );
  }
  if (reply.sent) return;
  // Also on errors raised where the onRequest hooks never ran (a URL the router cannot decode).
  reply.header('x-request-id', String(request.id));
  if (response.headers) reply.headers(response.headers);
  void reply.status(response.status).type('application/json; charset=utf-8').send(response.body);
}
