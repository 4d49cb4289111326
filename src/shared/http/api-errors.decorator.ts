import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';

/** API.md's one error shape, as the OpenAPI document describes it. */
export class ErrorDetail {
  @ApiProperty({ example: 'invalid_request_error' }) type!: string;
  @ApiProperty({ example: 'invalid_phone_number', description: 'Stable: a shipped code never changes' })
  code!: string;
  @ApiProperty({ example: 'to must be an E.164 number such as +233241234567' }) message!: string;
  @ApiPropertyOptional({ example: 'to', description: 'The field at fault, when one is' }) param?: string;
  @ApiProperty({ example: 'req_…' }) request_id!: string;
}

export class ErrorResponse {
  @ApiProperty({ type: ErrorDetail }) error!: ErrorDetail;
}

/** What each status means on every endpoint that can answer it; `codes` add the endpoint's own. */
const MEANINGS: Record<number, string> = {
  400: 'invalid_request_error: malformed JSON (invalid_json, with its line and column), a body that is not an object (invalid_request), a field the route does not know (parameter_unknown), a missing or mistyped field (parameter_missing, parameter_invalid)',
  401: 'authentication_error: missing, malformed, unknown or revoked API key (invalid_api_key)',
  402: 'insufficient_credit: sms_left does not cover the credits asked for',
  403: "permission_error: the API key's scope or allowed IPs do not cover this request (permission_denied)",
  404: 'not_found: unknown id, or one that belongs to another wallet or environment (resource_missing)',
  409: 'conflict',
  413: 'invalid_request_error: the body is larger than 16 KiB (body_too_large)',
  415: 'invalid_request_error: the body is not JSON (unsupported_media_type)',
  422: 'invalid_request_error',
  429: 'rate_limit_error: too many requests (rate_limited); Retry-After says when to retry',
  500: 'api_error: something failed on our side (internal_error); nothing internal is shown',
  503: 'api_error: a store is unreachable or the server is shutting down (service_unavailable); Retry-After says when to retry',
};

/** Statuses every authenticated JSON endpoint can answer, whatever it does (403: a key's scope or allow-list). */
const ALWAYS = [401, 403, 429, 500, 503] as const;
/** And every one that takes a JSON body. */
const WITH_BODY = [400, 413, 415] as const;

export interface ErrorDoc {
  /** Extra statuses this endpoint answers, with the codes it uses for them. */
  readonly [status: number]: readonly string[];
}

/**
 * Documents every error response of an endpoint in API.md's shape: the statuses all endpoints
 * share, those of a body-carrying endpoint when `body` is set, and the endpoint's own codes.
 */
export function ApiErrors(errors: ErrorDoc = {}, options: { body?: boolean; auth?: boolean } = {}) {
  const statuses = new Set<number>([
    ...(options.auth === false ? ALWAYS.filter((s) => s !== 401 && s !== 403) : ALWAYS),
    ...(options.body ? WITH_BODY : []),
    ...Object.keys(errors).map(Number),
  ]);
  return applyDecorators(
    ...[...statuses]
      .sort((a, b) => a - b)
      .map((status) => {
        const codes = errors[status] ?? [];
        const description = codes.length
          ? `${MEANINGS[status] ?? ''}${MEANINGS[status] ? '; ' : ''}${codes.join(', ')}`
          : (MEANINGS[status] ?? 'error');
        return ApiResponse({ status, description, type: ErrorResponse });
      }),
  );
}
