import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { DomainError, invalid } from '../../shared/domain-error';
import { Semaphore } from '../../shared/semaphore';

/** scrypt with N=2^15, r=8, p=1: memory-hard (32 MiB per hash), about 50 ms on a small server. */
const PARAMS = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

/**
 * Hashes at once, process-wide. Each runs on libuv's shared pool (4 threads, also used for file
 * and DNS work) for ~50 ms with 32 MiB: a burst of sign-ins must neither take the whole pool
 * nor hold hundreds of MiB at a time; the rest wait their turn.
 */
export const CONCURRENT_HASHES = 2;
const hashing = new Semaphore(CONCURRENT_HASHES);

const derive = (password: string, salt: Buffer, params = PARAMS) =>
  hashing.run(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, params, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
  );

/** `scrypt$N$r$p$salt$hash`, base64: the parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), {
    ...PARAMS,
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export const MIN_PASSWORD_LENGTH = 10;
/** Long enough for any passphrase; bounded so a sign-in cannot make us hash megabytes. */
export const MAX_PASSWORD_LENGTH = 200;

/** The rule every password set (sign-up, reset) follows: its refusal, or null. */
export function passwordRefusal(password: unknown): DomainError | null {
  if (
    typeof password === 'string' &&
    password.length >= MIN_PASSWORD_LENGTH &&
    password.length <= MAX_PASSWORD_LENGTH
  )
    return null;
  return invalid(
    'invalid_password',
    `password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`,
    'password',
  );
}
