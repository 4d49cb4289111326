import {
  isThrottled,
  SIGN_IN_MAX_ACCOUNT_FAILURES,
  SIGN_IN_MAX_ADDRESS_FAILURES,
  SIGN_IN_MAX_FAILURES,
  SIGN_IN_MAX_TRACKED,
  SIGN_IN_WINDOW_MS,
  SignInThrottle,
} from '../application/sign-in-throttle';
import { safeNext } from './console-auth';
import { csrfTokenFor, csrfTokenMatches, isPreSessionSecret, newPreSessionSecret } from './csrf';
import { OneTimeFlash } from './one-time-flash';

describe('console CSRF tokens', () => {
  it('differ per session secret and match only their own session', () => {
    const a = newPreSessionSecret();
    const b = newPreSessionSecret();
    expect(isPreSessionSecret(a)).toBe(true);
    expect(csrfTokenFor(a)).not.toBe(csrfTokenFor(b));
    expect(csrfTokenMatches(a, csrfTokenFor(a))).toBe(true);
    expect(csrfTokenMatches(a, csrfTokenFor(b))).toBe(false);
  });

  it('refuses a missing, empty, oversized or non-text token', () => {
    const a = newPreSessionSecret();
    for (const submitted of [undefined, null, '', 'x'.repeat(500), 42, ['a'], csrfTokenFor(a).slice(1)]) {
      expect(csrfTokenMatches(a, submitted)).toBe(false);
    }
    expect(csrfTokenMatches(undefined, csrfTokenFor(a))).toBe(false);
  });
});

describe('SignInThrottle', () => {
  const retryAfter = (throttle: SignInThrottle, email: string, address: string) => {
    const attempt = throttle.begin(email, address);
    return isThrottled(attempt) ? attempt.retryAfterSeconds : 0;
  };

  it('pauses an email from one address after 5 failures in 15 minutes, then lets it try again', () => {
    let now = 1_000_000;
    const throttle = new SignInThrottle(() => now);
    for (let i = 0; i < SIGN_IN_MAX_FAILURES; i++) {
      expect(retryAfter(throttle, i % 2 ? 'A@example.com' : 'a@example.com ', '10.0.0.1')).toBe(0);
      now += 1000;
    }
    const wait = retryAfter(throttle, 'a@example.com', '10.0.0.1');
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(SIGN_IN_WINDOW_MS / 1000);
    // Another address or another email is not affected.
    expect(retryAfter(throttle, 'a@example.com', '10.0.0.2')).toBe(0);
    expect(retryAfter(throttle, 'b@example.com', '10.0.0.1')).toBe(0);
    now += wait * 1000;
    expect(retryAfter(throttle, 'a@example.com', '10.0.0.1')).toBe(0);
  });

  it('counts an attempt when it begins, so concurrent attempts cannot all pass', () => {
    const throttle = new SignInThrottle();
    const begun = Array.from({ length: 50 }, () => throttle.begin('a@example.com', 'ip'));
    expect(begun.filter((a) => !isThrottled(a))).toHaveLength(SIGN_IN_MAX_FAILURES);
  });

  it('forgets the failures after a successful sign-in', () => {
    const throttle = new SignInThrottle();
    for (let i = 0; i < SIGN_IN_MAX_FAILURES - 1; i++) throttle.begin('a@example.com', 'ip');
    const right = throttle.begin('a@example.com', 'ip');
    if (isThrottled(right)) throw new Error('throttled too early');
    throttle.succeeded(right);
    for (let i = 0; i < SIGN_IN_MAX_FAILURES; i++)
      expect(retryAfter(throttle, 'a@example.com', 'ip')).toBe(0);
  });

  it('pauses one account guessed from many addresses, and one address guessing many accounts', () => {
    const throttle = new SignInThrottle();
    for (let i = 0; i < SIGN_IN_MAX_ACCOUNT_FAILURES; i++)
      expect(retryAfter(throttle, 'victim@example.com', `10.1.0.${i}`)).toBe(0);
    expect(retryAfter(throttle, 'victim@example.com', '10.2.0.1')).toBeGreaterThan(0);
    for (let i = 0; i < SIGN_IN_MAX_ADDRESS_FAILURES; i++)
      expect(retryAfter(throttle, `user${i}@example.com`, '10.3.0.1')).toBe(0);
    expect(retryAfter(throttle, 'someone-else@example.com', '10.3.0.1')).toBeGreaterThan(0);
  });

  it('keeps a bounded number of fixed-size counters whatever it is sent', () => {
    const throttle = new SignInThrottle();
    const huge = 'x'.repeat(1_000);
    for (let i = 0; i < SIGN_IN_MAX_TRACKED.pair + 100; i++) throttle.begin(`${i}${huge}`, `${i}${huge}`);
    expect(throttle.size).toBeLessThanOrEqual(
      SIGN_IN_MAX_TRACKED.pair + SIGN_IN_MAX_TRACKED.account + SIGN_IN_MAX_TRACKED.address,
    );
  });
});

describe('OneTimeFlash', () => {
  it('gives a value once, to its own session only, and forgets it after 10 minutes', () => {
    let now = 0;
    const flash = new OneTimeFlash(() => now);
    flash.put('s1', 'minted-key', { key: 'sms_test_x' });
    expect(flash.take('s2', 'minted-key')).toBeNull();
    expect(flash.take('s1', 'minted-key')).toEqual({ key: 'sms_test_x' });
    expect(flash.take('s1', 'minted-key')).toBeNull();
    flash.put('s1', 'minted-key', 1);
    now += 10 * 60 * 1000;
    expect(flash.take('s1', 'minted-key')).toBeNull();
  });
});

describe('safeNext', () => {
  it('only ever returns a console path of this site', () => {
    expect(safeNext('/console/keys')).toBe('/console/keys');
    expect(safeNext('/console/messages?starting_after=msg_abc')).toBe(
      '/console/messages?starting_after=msg_abc',
    );
    for (const bad of [
      'https://evil.example/',
      '//evil.example/console',
      '/console/../x',
      '/\\evil',
      'javascript:alert(1)',
      undefined,
      '/console/signout',
    ]) {
      expect(safeNext(bad)).toBe('/console');
    }
  });
});
