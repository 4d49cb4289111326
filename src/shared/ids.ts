import { randomBytes } from 'node:crypto';

/** Every public identifier is a prefixed string (API.md). */
export type IdPrefix = 'acct' | 'wal' | 'key' | 'msg' | 'chk' | 'req' | 'we' | 'evt' | 'ses' | 'pay';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Base62 text of `bytes` random bytes; 16 bytes give 128 bits, far beyond guessing. */
export function randomToken(length: number): string {
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 62).
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomToken(22)}`;
}

const ID_SHAPE = /^[a-z]{2,4}_[0-9A-Za-z]{8,64}$/;

/** True when `value` looks like an id with this prefix; anything else is simply not found. */
export function isIdOf(prefix: IdPrefix, value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(`${prefix}_`) && ID_SHAPE.test(value);
}
