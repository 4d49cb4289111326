import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { invalid } from '../../shared/domain-error';

/** 1–255 printable ASCII characters (API.md); null when the header is absent. */
export function parseIdempotencyKey(raw: unknown): string | null {
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !/^[\x20-\x7e]{1,255}$/.test(raw)) {
    throw invalid(
      'invalid_idempotency_key',
      'Idempotency-Key must be 1 to 255 printable ASCII characters',
      'Idempotency-Key',
    );
  }
  return raw;
}

/** The `Idempotency-Key` header: null when absent, 400 invalid_idempotency_key when malformed. */
export const IdempotencyKeyHeader = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string | null =>
    parseIdempotencyKey(context.switchToHttp().getRequest<FastifyRequest>().headers['idempotency-key']),
);
