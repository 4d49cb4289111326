import type { Socket } from 'node:net';
import { newId } from '../ids';

interface ClientError {
  readonly status: number;
  readonly reason: string;
  readonly code: string;
  readonly message: string;
}

/** Node's refusals of a request it could not read, in API.md's words. */
function clientErrorOf(code: string | undefined, requestTimeoutMs: number): ClientError {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return {
      status: 408,
      reason: 'Request Timeout',
      code: 'request_timeout',
      message: `The request did not arrive in full within ${requestTimeoutMs / 1000} s; send it again`,
    };
  if (code === 'HPE_HEADER_OVERFLOW')
    return {
      status: 431,
      reason: 'Request Header Fields Too Large',
      code: 'headers_too_large',
      message: 'The request headers are too large',
    };
  return {
    status: 400,
    reason: 'Bad Request',
    code: 'invalid_request',
    message: 'The request is not valid HTTP',
  };
}

/**
 * Fastify's `clientErrorHandler`: a request Node gave up on before any route saw it (one that did
 * not arrive within REQUEST_TIMEOUT_MS, headers too large, not HTTP) is answered in API.md's
 * error shape when nothing was answered on the connection yet, and the connection is closed.
 */
export function answerClientErrors(requestTimeoutMs: number) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !answering?.headersSent) {
      const known = clientErrorOf(error.code, requestTimeoutMs);
      const requestId = newId('req');
      const body = JSON.stringify({
        error: {
          type: 'invalid_request_error',
          code: known.code,
          message: known.message,
          request_id: requestId,
        },
      });
      socket.write(
        `HTTP/1.1 ${known.status} ${known.reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}
