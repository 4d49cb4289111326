import { applyDecorators } from '@nestjs/common';
import { IsDefined, IsNotEmpty, IsString } from 'class-validator';

/**
 * A body field that must be there and be text: `parameter_missing` when absent (or, with
 * `notEmpty`, empty), `parameter_invalid` when not a string.
 */
export function RequiredString(field: string, options: { notEmpty?: boolean } = {}) {
  const missing = { message: `${field} is required`, context: { code: 'parameter_missing' } };
  return applyDecorators(
    IsDefined(missing),
    IsString({ message: `${field} must be a string` }),
    ...(options.notEmpty ? [IsNotEmpty(missing)] : []),
  );
}
