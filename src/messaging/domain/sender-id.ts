import { DomainError, invalid } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';

/** Alphanumeric ids go out with TON 5 (alphanumeric); numeric ones as a number or short code. */
export type SenderIdKind = 'alphanumeric' | 'numeric';

export interface SenderId {
  readonly value: string;
  readonly kind: SenderIdKind;
}

const NUMERIC = /^[0-9]{3,15}$/;
const ALPHANUMERIC = /^[A-Za-z0-9 ]{3,11}$/;
const HAS_LETTER = /[A-Za-z]/;

/** The kind of a sender id, or null when it is not a valid one. */
export function senderIdKind(value: string): SenderIdKind | null {
  if (NUMERIC.test(value)) return 'numeric';
  if (ALPHANUMERIC.test(value) && HAS_LETTER.test(value)) return 'alphanumeric';
  return null;
}

/** API.md: 3–11 letters, digits or spaces with at least one letter, or 3–15 digits. */
export function parseSenderId(value: string): Result<SenderId, DomainError> {
  const kind = senderIdKind(value);
  if (!kind) {
    return err(
      invalid(
        'invalid_sender_id',
        'sender_id must be 3–11 letters, digits or spaces with at least one letter, or 3–15 digits',
        'sender_id',
      ),
    );
  }
  return ok({ value, kind });
}
