import { DomainError, invalid } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';

/** A long number in E.164 (`+` and 8–15 digits) or a short code (3–8 digits). */
const LONG_NUMBER = /^\+\d{8,15}$/;
const SHORT_CODE = /^\d{3,8}$/;

/** A number that can receive messages, as an operator assigns it and an inbound names it. */
export function parseReceivingNumber(value: unknown, param = 'number'): Result<string, DomainError> {
  const text = typeof value === 'string' ? value.trim() : '';
  if (LONG_NUMBER.test(text) || SHORT_CODE.test(text)) return ok(text);
  return err(
    invalid(
      'invalid_phone_number',
      `${param} must be an E.164 number such as +233241234567 or a short code of 3 to 8 digits`,
      param,
    ),
  );
}

/** The longest inbound text kept: ten concatenated parts of 160 characters. */
export const MAX_INBOUND_LENGTH = 1600;
