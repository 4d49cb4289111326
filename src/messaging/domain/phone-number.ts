// The 'max' metadata tells mobile from fixed-line ranges precisely (the default 'min' cannot).
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { DomainError, invalid } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import { ghanaMobileNumberTest, type NationalNumberTest } from './mobile-number-pattern';
import { isSandboxNumber } from './sandbox';

/** API.md: `+` and 8–15 digits. */
const E164 = /^\+\d{8,15}$/;
const GHANA = /^\+233\d{9}$/;

const shapeError = () =>
  invalid('invalid_phone_number', 'to must be an E.164 number such as +233241234567', 'to');

const GHANA_PREFIX = '+233';

export const isGhanaNumber = (e164: string): boolean => e164.startsWith(GHANA_PREFIX);

/**
 * Builds the validator. `isGhanaMobile` (the national number in libphonenumber's mobile ranges) may
 * only accept early, never refuse: every refusal comes from the full parse, so its messages stay
 * the same with or without it. Without it, every number gets the full parse.
 */
export const phoneNumberValidator =
  (isGhanaMobile: NationalNumberTest | undefined) =>
  (to: string): Result<string, DomainError> => {
    if (!E164.test(to)) return err(shapeError());
    if (isSandboxNumber(to)) return ok(to);
    if (isGhanaNumber(to) && !GHANA.test(to)) {
      return err(
        invalid(
          'invalid_phone_number',
          'to must be a Ghana number of +233 and 9 digits, such as +233241234567',
          'to',
        ),
      );
    }
    if (isGhanaNumber(to) && isGhanaMobile?.(to.slice(GHANA_PREFIX.length))) return ok(to);
    return fullParse(to);
  };

function fullParse(to: string): Result<string, DomainError> {
  const parsed = parsePhoneNumberFromString(to);
  // `number !== to` catches inputs libphonenumber silently rewrites, such as a national 0 after the country code.
  if (!parsed || !parsed.isValid() || parsed.number !== to) {
    return err(invalid('invalid_phone_number', `${to} is not a valid phone number`, 'to'));
  }
  if (isGhanaNumber(to)) {
    const type = parsed.getType();
    if (type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') {
      return err(invalid('invalid_phone_number', `${to} is not a valid Ghana mobile number`, 'to'));
    }
  }
  return ok(to);
}

/**
 * Checks `to` is an E.164 number that libphonenumber holds valid and, for Ghana (+233), a
 * valid mobile number. The four sandbox numbers are always accepted. Routing is a separate step.
 *
 * Nearly every send is to a Ghana mobile, and the full parse costs several percent of the HTTP
 * thread under load (issue 16), so Ghana mobiles are accepted by the mobile pattern read from the
 * same metadata (phone-number.property.spec.ts proves both give the same answers).
 */
export const validatePhoneNumber = phoneNumberValidator(ghanaMobileNumberTest);
