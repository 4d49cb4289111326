import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { toErrorResponse } from '../../shared/http/error-body';
import {
  ConsolePageError,
  ConsoleRedirect,
  ConsoleRequest,
  isConsolePath,
  layoutModel,
  pageSecurityHeaders,
} from './console-http';

const TITLES: Record<number, string> = {
  400: 'That did not work',
  401: 'Please sign in',
  402: 'Not enough credit',
  403: 'Not allowed',
  404: 'Page not found',
  409: 'Conflict',
  413: 'Too large',
  415: 'Unsupported form',
  429: 'Too many attempts',
  500: 'Something went wrong',
  503: 'Temporarily unavailable',
};

/**
 * Errors on console and try-out pages (`/console…`, `/try…`) become HTML pages with the
 * right status (404, 403, 429 with Retry-After, 500 that reveals nothing); every other path
 * keeps the API's JSON error bodies, handled by the filter this one wraps.
 */
@Catch()
export class ConsoleAwareExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('console');

  constructor(
    private readonly apiFilter: ExceptionFilter,
    private readonly publicUrl: () => string,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<ConsoleRequest>();
    if (!request?.url || !isConsolePath(request.url)) return this.apiFilter.catch(exception, host);
    const reply = http.getResponse<FastifyReply>();
    void this.renderError(request, reply, exception).catch((error) => {
      this.logger.error(`error page failed for ${request.id}`, (error as Error)?.stack);
      if (!reply.sent)
        void reply.status(500).type('text/plain; charset=utf-8').send('Something went wrong on our side.');
    });
  }

  private async renderError(request: ConsoleRequest, reply: FastifyReply, exception: unknown): Promise<void> {
    if (reply.sent) return;
    if (exception instanceof ConsoleRedirect) {
      pageSecurityHeaders(reply);
      await reply.status(303).header('location', exception.location).send();
      return;
    }
    let status: number;
    let title: string;
    let detail: string;
    let headers: Record<string, string> = {};
    if (exception instanceof ConsolePageError) {
      ({ status, title, detail, headers } = exception);
    } else {
      const response = toErrorResponse(exception, String(request.id));
      status = response.status;
      headers = response.headers ?? {};
      title = TITLES[status] ?? 'That did not work';
      detail =
        status === 404
          ? 'There is nothing at this address. Check the link, or go back to the console.'
          : status >= 500
            ? 'The error was logged. Please try again in a moment.'
            : response.body.error.message;
      if (status >= 500 && status !== 503) {
        this.logger.error(
          `${request.method} ${request.url.split('?')[0]} ${request.id}`,
          (exception as Error)?.stack,
        );
      }
    }
    const html = await reply.viewAsync('error', {
      ...layoutModel(request, reply, this.publicUrl()),
      title,
      detail,
      status,
      requestId: String(request.id),
    });
    pageSecurityHeaders(reply);
    for (const [name, value] of Object.entries(headers)) reply.header(name, value);
    await reply.status(status).type('text/html; charset=utf-8').send(html);
  }
}
