/**
 * What kind of refusal a business error is. The HTTP layer maps each kind to one status and
 * error type of API.md; the domain never speaks HTTP.
 */
export type ErrorKind =
  | 'invalid_request' // 400
  | 'authentication' // 401
  | 'insufficient_credit' // 402
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'conflict' // 409
  | 'payload_too_large' // 413
  | 'unprocessable' // 422
  | 'unsupported_media_type' // 415
  | 'rate_limit' // 429
  | 'unavailable'; // 503

/** A refusal with a stable, documented `code`; once shipped a code never changes. */
export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalid = (code: string, message: string, param?: string) =>
  new DomainError('invalid_request', code, message, param);

export const notFound = (what: string, param?: string) =>
  new DomainError('not_found', 'resource_missing', `No such ${what}`, param);
