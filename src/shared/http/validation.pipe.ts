import { ValidationError, ValidationPipe } from '@nestjs/common';
import { invalid } from '../domain-error';

/**
 * class-validator for request DTOs, answering with the first problem in API.md's shape. A
 * decorator names its error code through `context: { code }`; otherwise a missing field is
 * `parameter_missing` and any other failure `parameter_invalid`.
 */
export function apiValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const { path, constraint, message, code } = firstProblem(errors);
      const fallback =
        constraint === 'isDefined' || constraint === 'isNotEmpty' ? 'parameter_missing' : 'parameter_invalid';
      return invalid(code ?? fallback, message, path);
    },
  });
}

function firstProblem(
  errors: ValidationError[],
  prefix = '',
): { path: string; constraint: string; message: string; code?: string } {
  const first = errors[0];
  const path = prefix ? `${prefix}.${first.property}` : first.property;
  if (!first.constraints && first.children?.length) return firstProblem(first.children, path);
  const [constraint, message] = Object.entries(first.constraints ?? { invalid: `${path} is invalid` })[0];
  const code = (first.contexts?.[constraint] as { code?: string } | undefined)?.code;
  return { path, constraint, message, code };
}
