// Fixtures for the verification decider specs (excluded from the build as *.test-support.ts).
import { fold } from '../../shared/decider';
import { verificationDecider, VerificationState } from './verification.decider';
import type { VerificationEvent, VerificationStartedData } from './verification.events';

export const T0 = new Date('2026-11-24T10:00:00.000Z');
export const at = (ms: number) => new Date(T0.getTime() + ms);
export const iso = (ms: number) => at(ms).toISOString();
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;

export const scope = { walletId: 'wal_1', environment: 'TEST' as const };

export const startedData: VerificationStartedData = {
  verificationId: 'ver_1',
  walletId: 'wal_1',
  accountId: 'acct_1',
  environment: 'TEST',
  to: '+233241234567',
  senderId: 'MyShop',
  template: 'Your verification code is {{code}}',
  codeLength: 6,
  maxChecks: 3,
  expiresInSeconds: 600,
  codeHash: 'hash-of-first-code',
  messageId: 'msg_ver1',
  credits: 1,
  expiresAt: iso(10 * MINUTE),
  createdAt: iso(0),
  idempotencyKey: null,
  requestHash: null,
};

export const started: VerificationEvent = { type: 'VerificationStarted', data: startedData };
export const wrongCheck = (ms: number, checksLeft: number): VerificationEvent => ({
  type: 'VerificationCheckFailed',
  data: { checksLeft, at: iso(ms) },
});
export const resent = (ms: number, send = 2, codeHash = `hash-of-code-${send}`): VerificationEvent => ({
  type: 'VerificationCodeResent',
  data: {
    send,
    codeHash,
    messageId: `msg_ver${send}`,
    credits: 1,
    expiresAt: iso(ms + 10 * MINUTE),
    at: iso(ms),
  },
});

export const given = (...events: VerificationEvent[]): VerificationState => fold(verificationDecider, events);
