import { applyDecorators } from '@nestjs/common';
import { IsDefined, IsNotEmpty, IsString } from 'class-validator';

/**
 * A body field that must be there and be text: `parameter_missing` when absent (or, with
 * `notEmpty`, empty), `parameter_invalid` when not a string. With `choices` ("transactional or
 * promotional"), both refusals say what it may be.
 */
export function RequiredString(field: string, options: { notEmpty?: boolean; choices?: string } = {}) {
  const missing = {
    message: options.choices ? `${field} is required: ${options.choices}` : `${field} is required`,
    context: { code: 'parameter_missing' },
  };
  return applyDecorators(
    IsDefined(missing),
    IsString({
      message: options.choices ? `${field} must be ${options.choices}` : `${field} must be a string`,
    }),
    ...(options.notEmpty ? [IsNotEmpty(missing)] : []),
  );
}
