import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomToken } from '../../shared/ids';

/** A signed-out visitor's secret: 256 bits of base62, like a session id. */
const PRE_SESSION_SECRET_LENGTH = 43;
const PRE_SESSION_SECRET_SHAPE = /^[0-9A-Za-z]{43}$/;

/**
 * The CSRF token of a session (or of a signed-out visitor's pre-session cookie): an HMAC of
 * the cookie's random secret. Unpredictable without the HttpOnly cookie, different for every
 * session, and never stored anywhere, so there is nothing to leak or to clean up.
 */
export function csrfTokenFor(secret: string): string {
  return createHmac('sha256', secret).update('console-csrf-v1').digest('base64url');
}

/** Constant-time comparison of a submitted token with the expected one. */
export function csrfTokenMatches(secret: string | undefined, submitted: unknown): boolean {
  if (!secret || typeof submitted !== 'string' || submitted.length === 0 || submitted.length > 200)
    return false;
  const expected = Buffer.from(csrfTokenFor(secret), 'utf8');
  const actual = Buffer.from(submitted, 'utf8');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

export const newPreSessionSecret = () => randomToken(PRE_SESSION_SECRET_LENGTH);
export const isPreSessionSecret = (value: unknown): value is string =>
  typeof value === 'string' && PRE_SESSION_SECRET_SHAPE.test(value);
