import { DomainError, invalid } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';

export const CODE_PLACEHOLDER = '{{code}}';
export const DEFAULT_TEMPLATE = `Your verification code is ${CODE_PLACEHOLDER}`;
export const CODE_LENGTH = { min: 4, max: 10, default: 6 } as const;
export const EXPIRES_IN_SECONDS = { min: 60, max: 1800, default: 600 } as const;
export const MAX_CHECKS = { min: 1, max: 10, default: 5 } as const;
/** What the masked text shows in place of each digit. */
export const MASK = '*';

/** A create body as it arrived (after the DTO's wire checks); nothing about it is trusted yet. */
export interface VerificationInput {
  readonly to: unknown;
  readonly sender_id: unknown;
  readonly message?: unknown;
  readonly code_length?: unknown;
  readonly expires_in?: unknown;
  readonly max_checks?: unknown;
}

/** Its own settings, checked; `to` and `sender_id` are messaging's to check (as for any send). */
export interface VerificationSettings {
  readonly to: string;
  readonly senderId: string;
  readonly template: string;
  readonly codeLength: number;
  readonly expiresInSeconds: number;
  readonly maxChecks: number;
}

function whole(
  value: unknown,
  param: string,
  range: { min: number; max: number; default: number },
  code: string,
  unit: string,
): Result<number, DomainError> {
  if (value === undefined || value === null) return ok(range.default);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < range.min || value > range.max)
    return err(
      invalid(code, `${param} must be a whole number from ${range.min} to ${range.max}${unit}`, param),
    );
  return ok(value);
}

const text = (value: unknown, param: string): Result<string, DomainError> => {
  if (value === undefined || value === null)
    return err(invalid('parameter_missing', `${param} is required`, param));
  if (typeof value !== 'string') return err(invalid('parameter_invalid', `${param} must be a string`, param));
  return ok(value);
};

/**
 * The verification's own fields, in API.md's order: `message` must hold `{{code}}` exactly once
 * (`invalid_message`), `code_length` 4–10, `expires_in` 60–1800 seconds, `max_checks` 1–10.
 */
export function validateVerificationInput(
  input: VerificationInput,
): Result<VerificationSettings, DomainError> {
  const to = text(input.to, 'to');
  if (!to.ok) return to;
  const senderId = text(input.sender_id, 'sender_id');
  if (!senderId.ok) return senderId;
  let template = DEFAULT_TEMPLATE;
  if (input.message !== undefined && input.message !== null) {
    if (typeof input.message !== 'string')
      return err(invalid('parameter_invalid', 'message must be a string', 'message'));
    if (input.message.split(CODE_PLACEHOLDER).length !== 2)
      return err(
        invalid('invalid_message', `message must contain ${CODE_PLACEHOLDER} exactly once`, 'message'),
      );
    template = input.message;
  }
  const codeLength = whole(input.code_length, 'code_length', CODE_LENGTH, 'invalid_code_length', ' digits');
  if (!codeLength.ok) return codeLength;
  const expiresIn = whole(
    input.expires_in,
    'expires_in',
    EXPIRES_IN_SECONDS,
    'invalid_expires_in',
    ' seconds',
  );
  if (!expiresIn.ok) return expiresIn;
  const maxChecks = whole(input.max_checks, 'max_checks', MAX_CHECKS, 'invalid_max_checks', '');
  if (!maxChecks.ok) return maxChecks;
  return ok({
    to: to.value,
    senderId: senderId.value,
    template,
    codeLength: codeLength.value,
    expiresInSeconds: expiresIn.value,
    maxChecks: maxChecks.value,
  });
}

/** The SMS text with the code in it (or, for what reads show, the code masked). */
export const renderCode = (template: string, code: string) => template.replace(CODE_PLACEHOLDER, () => code);

/** The text every read of the message shows: the code's digits masked. */
export const maskedText = (template: string, codeLength: number) =>
  renderCode(template, MASK.repeat(codeLength));

/** A code as a check may carry it: 4 to 10 digits (else 400; a well-formed wrong code uses a check). */
export const isCodeShape = (value: string) => /^[0-9]{4,10}$/.test(value);
