import { randomFillSync } from 'node:crypto';

/** Every public identifier is a prefixed string (API.md). */
export type IdPrefix =
  | 'acct'
  | 'wal'
  | 'key'
  | 'msg'
  | 'chk'
  | 'req'
  | 'we'
  | 'evt'
  | 'ses'
  | 'pay'
  | 'bat'
  | 'in'
  | 'con'
  | 'grp'
  | 'imp'
  | 'tpl'
  | 'cmp'
  | 'usr'
  | 'inv'
  | 'mem'
  | 'aud'
  | 'ver';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes are drawn from the CSPRNG a few kilobytes at a time (as crypto.randomUUID does):
 * one call into OpenSSL per id was a visible share of a busy server's time.
 */
const entropy = Buffer.alloc(4096);
let used = entropy.length;

function randomByte(): number {
  if (used === entropy.length) {
    randomFillSync(entropy);
    used = 0;
  }
  const byte = entropy[used];
  entropy[used++] = 0; // what became part of a secret does not linger in the pool
  return byte;
}

/** `length` random base62 characters: about 5.95 bits each, so 22 give 131 bits. */
export function randomToken(length: number): string {
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 62).
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/**
 * `prefix_` + 8 characters of the creation time + 14 random ones (83 bits). The alphabet is in
 * ASCII order, so ids sort by creation time: the rows and index entries of what was just
 * created sit together in the stores' B-trees, where random keys would touch (and write) a
 * different page for each. An id tells when it was made, which its object says anyway.
 */
export function newId(prefix: IdPrefix, now = Date.now()): string {
  return `${prefix}_${base62(now, 8)}${randomToken(14)}`;
}

/** `value` in base62, left-padded with zeros to `width` characters. */
export function base62(value: number | bigint, width: number): string {
  let rest = BigInt(value);
  let out = '';
  while (rest > 0n) {
    out = ALPHABET[Number(rest % 62n)] + out;
    rest /= 62n;
  }
  return out.padStart(width, '0');
}

const ID_SHAPE = /^[a-z]{2,4}_[0-9A-Za-z]{8,64}$/;

/** True when `value` looks like an id with this prefix; anything else is simply not found. */
export function isIdOf(prefix: IdPrefix, value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(`${prefix}_`) && ID_SHAPE.test(value);
}
