import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export interface ListPage<T> {
  readonly object: 'list';
  readonly data: readonly T[];
  readonly has_more: boolean;
}

/** Builds a page from `limit + 1` fetched items: the extra one only says whether more exist. */
export function page<T>(items: readonly T[], limit: number): ListPage<T> {
  return { object: 'list', data: items.slice(0, limit), has_more: items.length > limit };
}

/** A list's optional `limit` query parameter: a whole number from 1 to `max`, else 400 invalid_limit. */
export function PageLimit(max: number, fallback: number) {
  const refusal = {
    message: `limit must be a whole number from 1 to ${max}`,
    context: { code: 'invalid_limit' },
  };
  return applyDecorators(
    ApiPropertyOptional({ description: `1 to ${max}`, default: fallback }),
    IsOptional(),
    Type(() => Number),
    IsInt(refusal),
    Min(1, refusal),
    Max(max, refusal),
  );
}
