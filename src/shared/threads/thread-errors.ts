import { DomainError, ErrorKind } from '../domain-error';
import { ConcurrencyError, ExpectedRevision, StoreUnavailableError } from '../event-store/event-store.port';

/**
 * Errors as they cross between threads: structured cloning keeps an Error's message but not its
 * class or fields, and callers on the other side branch on both (a DomainError's kind and code,
 * a ConcurrencyError's stream, a StoreUnavailableError's 503).
 */
type Encoded =
  | {
      readonly class: 'DomainError';
      readonly kind: ErrorKind;
      readonly code: string;
      readonly message: string;
      readonly param?: string;
    }
  | {
      readonly class: 'ConcurrencyError';
      readonly streamId: string;
      readonly expected: ExpectedRevision;
      readonly actual: bigint | 'no_stream';
    }
  | { readonly class: 'StoreUnavailableError'; readonly message: string }
  | { readonly class: 'Error'; readonly name: string; readonly message: string; readonly stack?: string };

export function encodeError(error: unknown): Encoded {
  if (error instanceof DomainError) {
    return {
      class: 'DomainError',
      kind: error.kind,
      code: error.code,
      message: error.message,
      param: error.param,
    };
  }
  if (error instanceof ConcurrencyError) {
    return {
      class: 'ConcurrencyError',
      streamId: error.streamId,
      expected: error.expected,
      actual: error.actual,
    };
  }
  if (error instanceof StoreUnavailableError)
    return { class: 'StoreUnavailableError', message: error.message };
  const e = error instanceof Error ? error : new Error(String(error));
  return { class: 'Error', name: e.name, message: e.message, stack: e.stack };
}

export function decodeError(encoded: unknown): Error {
  const e = encoded as Encoded;
  switch (e.class) {
    case 'DomainError':
      return new DomainError(e.kind, e.code, e.message, e.param);
    case 'ConcurrencyError':
      return new ConcurrencyError(e.streamId, e.expected, e.actual);
    case 'StoreUnavailableError':
      return new StoreUnavailableError(e.message);
    default: {
      const error = new Error(e.message);
      error.name = e.name;
      if (e.stack) error.stack = e.stack;
      return error;
    }
  }
}
