import type { DomainError } from '../../shared/domain-error';
import { err, ok } from '../../shared/result';
import {
  cancel,
  check,
  checksLeft,
  endedBy,
  expire,
  isVerification,
  MAX_SENDS,
  resend,
  RetryLater,
  sameHash,
  start,
  statusAt,
  Verification,
} from './verification.decider';
import { verificationStream } from './verification.events';
import {
  at,
  given,
  iso,
  MINUTE,
  resent,
  SECOND,
  scope,
  started,
  startedData,
  wrongCheck,
} from './verification.test-support';

const refused = (code: string) => err(expect.objectContaining<Partial<DomainError>>({ code }));
const verification = (state: ReturnType<typeof given>) => {
  if (!isVerification(state)) throw new Error('not started');
  return state;
};
const checkWith = (codeHash: string, ms: number, state = given(started)) =>
  check(state, { scope, codeHash, now: at(ms) });

describe('verification decider', () => {
  it('lives in the stream verification-<id>', () =>
    expect(verificationStream('ver_1')).toBe('verification-ver_1'));

  describe('start', () => {
    it('starts an empty stream, pending with its first send', () => {
      expect(start(given(), startedData)).toEqual(ok([started]));
      expect(given(started)).toMatchObject({
        status: 'pending',
        sends: 1,
        checks: 0,
        messageIds: ['msg_ver1'],
      });
    });

    it('records nothing again for a verification already started', () => {
      expect(start(given(started), startedData)).toEqual(ok([]));
    });
  });

  describe('check', () => {
    it('approves the right code in time', () => {
      expect(checkWith('hash-of-first-code', MINUTE)).toEqual(
        ok([{ type: 'VerificationApproved', data: { at: iso(MINUTE) } }]),
      );
    });

    it('uses a check for a wrong code, with the checks left', () => {
      expect(checkWith('hash-of-wrong-code', MINUTE)).toEqual(ok([wrongCheck(MINUTE, 2)]));
      expect(checksLeft(verification(given(started, wrongCheck(MINUTE, 2))))).toBe(2);
    });

    it('fails the verification when the last check allowed is wrong', () => {
      const twoWrong = given(started, wrongCheck(SECOND, 2), wrongCheck(2 * SECOND, 1));
      expect(checkWith('hash-of-wrong-code', 3 * SECOND, twoWrong)).toEqual(
        ok([{ type: 'VerificationFailed', data: { at: iso(3 * SECOND) } }]),
      );
    });

    it('does not take the right code once the checks are used up', () => {
      const failed = given(started, wrongCheck(1, 2), wrongCheck(2, 1), {
        type: 'VerificationFailed',
        data: { at: iso(3) },
      });
      expect(checkWith('hash-of-first-code', 4, failed)).toEqual(refused('verification_closed'));
    });

    it('answers expired past expires_at, recording the expiry if nobody has', () => {
      expect(checkWith('hash-of-first-code', 10 * MINUTE)).toEqual(
        ok([{ type: 'VerificationExpired', data: { expiredAt: iso(10 * MINUTE), at: iso(10 * MINUTE) } }]),
      );
    });

    it('answers expired again, recording nothing, once the expiry is recorded', () => {
      const expired = given(started, {
        type: 'VerificationExpired',
        data: { expiredAt: iso(10 * MINUTE), at: iso(10 * MINUTE) },
      });
      expect(checkWith('hash-of-first-code', 11 * MINUTE, expired)).toEqual(ok([]));
      expect(statusAt(verification(expired), at(11 * MINUTE))).toBe('expired');
    });

    it('closes an approved or canceled verification to further checks', () => {
      const approved = given(started, { type: 'VerificationApproved', data: { at: iso(1) } });
      const canceled = given(started, {
        type: 'VerificationCanceled',
        data: { at: iso(1) },
      });
      expect(checkWith('hash-of-first-code', 2, approved)).toEqual(refused('verification_closed'));
      expect(checkWith('hash-of-first-code', 2, canceled)).toEqual(refused('verification_closed'));
    });

    it('answers another wallet or environment as an unknown id', () => {
      expect(
        check(given(started), {
          scope: { walletId: 'wal_2', environment: 'TEST' },
          codeHash: 'x',
          now: at(1),
        }),
      ).toEqual(refused('resource_missing'));
      expect(
        check(given(started), {
          scope: { walletId: 'wal_1', environment: 'LIVE' },
          codeHash: 'x',
          now: at(1),
        }),
      ).toEqual(refused('resource_missing'));
      expect(check(given(), { scope, codeHash: 'x', now: at(1) })).toEqual(refused('resource_missing'));
    });

    it('takes only the newest code after a resend', () => {
      const resentOnce = given(started, resent(MINUTE));
      expect(checkWith('hash-of-first-code', 2 * MINUTE, resentOnce)).toEqual(
        ok([wrongCheck(2 * MINUTE, 2)]),
      );
      expect(checkWith('hash-of-code-2', 2 * MINUTE, resentOnce)).toEqual(
        ok([{ type: 'VerificationApproved', data: { at: iso(2 * MINUTE) } }]),
      );
    });

    it('compares hashes in constant time, equal only when equal', () => {
      expect(sameHash('abc', 'abc')).toBe(true);
      expect(sameHash('abc', 'abd')).toBe(false);
      expect(sameHash('abc', 'abcd')).toBe(false);
    });
  });

  describe('resend', () => {
    const resendAt = (ms: number, state = given(started)) =>
      resend(state, { scope, codeHash: 'new-hash', messageId: 'msg_new', credits: 1, now: at(ms) });

    it('sends a new code 30 s after the previous one, the expiry starting again', () => {
      expect(resendAt(30 * SECOND)).toEqual(
        ok([
          {
            type: 'VerificationCodeResent',
            data: {
              send: 2,
              codeHash: 'new-hash',
              messageId: 'msg_new',
              credits: 1,
              expiresAt: iso(30 * SECOND + 10 * MINUTE),
              at: iso(30 * SECOND),
            },
          },
        ]),
      );
    });

    it('refuses a resend sooner than 30 s, saying when', () => {
      const answer = resendAt(10 * SECOND);
      expect(answer).toEqual(refused('resend_too_soon'));
      expect(!answer.ok && (answer.error as RetryLater).retryAfterSeconds).toBe(20);
    });

    it(`refuses a send after the ${MAX_SENDS}th`, () => {
      const sentFive = given(
        started,
        resent(1 * MINUTE, 2),
        resent(2 * MINUTE, 3),
        resent(3 * MINUTE, 4),
        resent(4 * MINUTE, 5),
      );
      expect(verification(sentFive).sends).toBe(5);
      expect(resendAt(5 * MINUTE, sentFive)).toEqual(refused('max_sends_reached'));
    });

    it('keeps the checks already used', () => {
      const state = given(started, wrongCheck(SECOND, 2), resent(MINUTE));
      expect(checksLeft(verification(state))).toBe(2);
    });

    it('refuses a final or expired verification', () => {
      const approved = given(started, { type: 'VerificationApproved', data: { at: iso(1) } });
      expect(resendAt(MINUTE, approved)).toEqual(refused('verification_closed'));
      expect(resendAt(10 * MINUTE)).toEqual(refused('verification_closed'));
    });
  });

  describe('cancel', () => {
    it('cancels a pending verification', () => {
      expect(cancel(given(started), { scope, now: at(MINUTE) })).toEqual(
        ok([{ type: 'VerificationCanceled', data: { at: iso(MINUTE) } }]),
      );
    });

    it('refuses a final or expired one', () => {
      const canceled = given(started, {
        type: 'VerificationCanceled',
        data: { at: iso(1) },
      });
      expect(cancel(canceled, { scope, now: at(MINUTE) })).toEqual(refused('verification_closed'));
      expect(cancel(given(started), { scope, now: at(10 * MINUTE) })).toEqual(refused('verification_closed'));
    });
  });

  describe('expire', () => {
    it('records the expiry of a pending verification at or past expires_at', () => {
      expect(expire(given(started), at(10 * MINUTE))).toEqual(
        ok([{ type: 'VerificationExpired', data: { expiredAt: iso(10 * MINUTE), at: iso(10 * MINUTE) } }]),
      );
    });

    it('records nothing before expires_at, or for a final verification', () => {
      expect(expire(given(started), at(10 * MINUTE - 1))).toEqual(ok([]));
      const approved = given(started, { type: 'VerificationApproved', data: { at: iso(1) } });
      expect(expire(approved, at(20 * MINUTE))).toEqual(ok([]));
    });

    it('reads expired at once past expires_at, before the expiry is recorded', () => {
      const v: Verification = verification(given(started));
      expect(statusAt(v, at(10 * MINUTE - 1))).toBe('pending');
      expect(statusAt(v, at(10 * MINUTE))).toBe('expired');
    });
  });

  describe('endedBy', () => {
    it('names the verification a recorded decision ended, and nothing else', () => {
      const approvedEvents = [{ type: 'VerificationApproved' as const, data: { at: iso(1) } }];
      const state = given(started, ...approvedEvents);
      expect(endedBy(ok({ state, events: approvedEvents }))).toMatchObject({ status: 'approved' });
      expect(endedBy(ok({ state: given(started, wrongCheck(1, 2)), events: [wrongCheck(1, 2)] }))).toBeNull();
      expect(endedBy(err(new Error('x')))).toBeNull();
    });
  });
});
