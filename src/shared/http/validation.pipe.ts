import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { invalid } from '../domain-error';
import { shapeRefusalOf } from './route-policies';

/**
 * Type checks come before the checks that refine a value: `type: 5` is `parameter_invalid`
 * ("must be a string"), not "must be transactional or promotional".
 */
const TYPE_CHECKS = new Set(['isString', 'isInt', 'isNumber', 'isArray', 'isBoolean', 'isObject']);

/**
 * The one ValidationPipe of the service: class-validator DTOs for every request body, query and
 * console form, answering the first problem in API.md's shape with `param` set to the field. A
 * body that failed its route's shape (an unknown field, too many keys, nested too deep:
 * route-policies.ts) is refused first, before class-transformer walks it.
 *
 * A decorator names its error code through `context: { code }`; otherwise a missing field is
 * `parameter_missing` and any other failure `parameter_invalid`. A body that is not a JSON
 * object at all is `invalid_request`, and a body-less request is validated as an empty object,
 * so its missing fields are named.
 */
@Injectable()
export class ApiValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidUnknownValues: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => {
        const { path, constraint, message, code } = firstProblem(errors);
        const fallback = constraint === 'isDefined' ? 'parameter_missing' : 'parameter_invalid';
        return invalid(code ?? fallback, message, path);
      },
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (!this.toValidate(metadata)) return value;
    if (metadata.type === 'body') {
      // Its shape first (route-policies.ts): nothing below walks a body of unbounded shape.
      const shapeRefusal = shapeRefusalOf(value);
      if (shapeRefusal) throw shapeRefusal;
      if (value === undefined || value === null) value = {};
      if (typeof value !== 'object' || Array.isArray(value)) {
        throw invalid('invalid_request', 'The request body must be a JSON object');
      }
    }
    return super.transform(value, metadata);
  }
}

export function apiValidationPipe(): ValidationPipe {
  return new ApiValidationPipe();
}

interface Problem {
  readonly path: string;
  readonly constraint: string;
  readonly message: string;
  readonly code?: string;
}

/** The first failing field (nested fields as `a.b`, list items as `a[3]`), and its most basic failure. */
function firstProblem(errors: readonly ValidationError[], prefix = ''): Problem {
  const first = errors[0];
  const path = !prefix
    ? first.property
    : /^\d+$/.test(first.property)
      ? `${prefix}[${first.property}]`
      : `${prefix}.${first.property}`;
  if (!first.constraints && first.children?.length) return firstProblem(first.children, path);
  const constraints = Object.entries(first.constraints ?? { invalid: `${path} is invalid` });
  const rank = ([name]: [string, string]) => (name === 'isDefined' ? 0 : TYPE_CHECKS.has(name) ? 1 : 2);
  const [constraint, message] = constraints.reduce((best, c) => (rank(c) < rank(best) ? c : best));
  const code = (first.contexts?.[constraint] as { code?: string } | undefined)?.code;
  return { path, constraint, message, code };
}
