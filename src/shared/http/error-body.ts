import { HttpException } from '@nestjs/common';
import { DomainError, ErrorKind } from '../domain-error';
import { StoreUnavailableError } from '../event-store/event-store.port';
import { jsonSyntaxProblem } from './json-syntax';

export interface ErrorBody {
  readonly error: {
    readonly type: string;
    readonly code: string;
    readonly message: string;
    readonly param?: string;
    readonly request_id: string;
  };
}

export interface HttpErrorResponse {
  readonly status: number;
  readonly body: ErrorBody;
  /** Extra headers the answer must carry, such as Retry-After. */
  readonly headers?: Record<string, string>;
}

const KINDS: Record<ErrorKind, { status: number; type: string }> = {
  invalid_request: { status: 400, type: 'invalid_request_error' },
  authentication: { status: 401, type: 'authentication_error' },
  insufficient_credit: { status: 402, type: 'insufficient_credit' },
  forbidden: { status: 403, type: 'permission_error' },
  not_found: { status: 404, type: 'not_found' },
  conflict: { status: 409, type: 'conflict' },
  payload_too_large: { status: 413, type: 'invalid_request_error' },
  unprocessable: { status: 422, type: 'invalid_request_error' },
  unsupported_media_type: { status: 415, type: 'invalid_request_error' },
  rate_limit: { status: 429, type: 'rate_limit_error' },
  unavailable: { status: 503, type: 'api_error' },
};

/** A refusal that carries its own headers (429's Retry-After). */
export class DomainErrorWithHeaders extends DomainError {
  constructor(
    error: DomainError,
    readonly headers: Record<string, string>,
  ) {
    super(error.kind, error.code, error.message, error.param);
  }
}

/** Fastify's own refusals, raised before a request reaches a controller. */
const FRAMEWORK: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'body_too_large',
    message:
      'The request body is larger than 16 KiB (2 MiB for POST /v1/messages/batch, 40 KiB for POST /v1/groups/:id/contacts)',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'Send the request body as JSON with Content-Type: application/json',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_json', message: 'The JSON body is empty' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'invalid_request',
    message: 'Content-Length does not match the body',
  },
  FST_ERR_CTP_INVALID_CHARSET: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'The body must be UTF-8 JSON',
  },
  // Raised by the router before any hook runs (see createFastifyAdapter's frameworkErrors).
  FST_ERR_BAD_URL: {
    status: 400,
    code: 'invalid_url',
    message: 'The request URL is not validly percent-encoded',
  },
  FST_ERR_MAX_PARAM_LENGTH: { status: 404, code: 'resource_missing', message: 'No such route or resource' },
};

const BODY_PARSE_FAILURE = /JSON|prototype property|constructor property/i;

const STATUS_CODES: Record<number, { code: string; kind: ErrorKind | null }> = {
  400: { code: 'invalid_request', kind: 'invalid_request' },
  401: { code: 'invalid_api_key', kind: 'authentication' },
  403: { code: 'forbidden', kind: 'forbidden' },
  404: { code: 'resource_missing', kind: 'not_found' },
  405: { code: 'method_not_allowed', kind: 'not_found' },
  409: { code: 'conflict', kind: 'conflict' },
  413: { code: 'body_too_large', kind: null },
  415: { code: 'unsupported_media_type', kind: null },
  422: { code: 'unprocessable', kind: 'unprocessable' },
  429: { code: 'rate_limited', kind: 'rate_limit' },
};

/**
 * Malformed JSON, with where it broke when the body is at hand (`line 3, column 8`); valid JSON
 * the parser still refused holds a `__proto__` or `constructor.prototype` key.
 */
function invalidJsonMessage(error: unknown, rawBody: Buffer | undefined): string {
  const where = rawBody ? jsonSyntaxProblem(rawBody.toString('utf8')) : null;
  if (where)
    return `The request body is not valid JSON: ${where.problem} at line ${where.line}, column ${where.column}`;
  if (/prototype property|constructor property/i.test((error as Error)?.message ?? ''))
    return 'The request body holds a __proto__ or constructor.prototype key, which is refused';
  return 'The request body is not valid JSON';
}

/**
 * Turns anything thrown while serving a request into API.md's one error shape. Unknown
 * errors become a bare 500: their message may hold SQL, a path or a key, so none of it leaks.
 * `rawBody`, the request's body as it arrived, lets a JSON syntax error say where it is.
 */
export function toErrorResponse(error: unknown, requestId: string, rawBody?: Buffer): HttpErrorResponse {
  const body = (status: number, type: string, code: string, message: string, param?: string): ErrorBody => ({
    error: { type, code, message, ...(param ? { param } : {}), request_id: requestId },
  });

  if (error instanceof DomainError) {
    const { status, type } = KINDS[error.kind];
    const headers = error instanceof DomainErrorWithHeaders ? error.headers : undefined;
    return { status, body: body(status, type, error.code, error.message, error.param), headers };
  }
  if (error instanceof StoreUnavailableError) {
    return {
      status: 503,
      body: body(
        503,
        'api_error',
        'service_unavailable',
        'The service is temporarily unavailable; retry shortly',
      ),
      headers: { 'retry-after': '1' },
    };
  }
  const frameworkCode = (error as { code?: unknown })?.code;
  if (typeof frameworkCode === 'string' && FRAMEWORK[frameworkCode]) {
    const known = FRAMEWORK[frameworkCode];
    const type = known.status === 404 ? KINDS.not_found.type : 'invalid_request_error';
    return { status: known.status, body: body(known.status, type, known.code, known.message) };
  }
  if (error instanceof SyntaxError || frameworkCode === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return {
      status: 400,
      body: body(400, 'invalid_request_error', 'invalid_json', invalidJsonMessage(error, rawBody)),
    };
  }
  const status = statusOf(error);
  if (status !== null && status >= 400 && status < 500) {
    const known = STATUS_CODES[status] ?? { code: 'invalid_request', kind: 'invalid_request' };
    const type = known.kind ? KINDS[known.kind].type : 'invalid_request_error';
    const message =
      status === 404 ? 'No such route or resource' : (httpMessage(error) ?? 'The request was refused');
    // Nest rewraps the body parser's refusals as plain 400s; their message still tells which.
    if (status === 400 && BODY_PARSE_FAILURE.test(message))
      return { status, body: body(status, type, 'invalid_json', invalidJsonMessage(error, rawBody)) };
    return { status, body: body(status, type, known.code, message) };
  }
  return {
    status: 500,
    body: body(500, 'api_error', 'internal_error', 'Something went wrong on our side; it was logged'),
  };
}

function statusOf(error: unknown): number | null {
  if (error instanceof HttpException) return error.getStatus();
  const status = (error as { statusCode?: unknown })?.statusCode;
  return typeof status === 'number' ? status : null;
}

function httpMessage(error: unknown): string | null {
  if (!(error instanceof HttpException)) return null;
  const response = error.getResponse();
  return typeof response === 'string' ? response : error.message;
}
