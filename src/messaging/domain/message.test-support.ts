// Fixtures for the message decider specs (excluded from the build as *.test-support.ts).
import { fold } from '../../shared/decider';
import type { FinalStatus } from '../ports/carrier.port';
import { messageDecider, MessageState, ReceiptInput } from './message.decider';
import type { MessageEvent, MessageQueuedData, MessageScheduledData } from './message.events';

export const T0 = new Date('2026-01-01T00:00:00.000Z');
export const at = (ms: number) => new Date(T0.getTime() + ms);
export const iso = (ms: number) => at(ms).toISOString();
export const MINUTE = 60_000;
/** TEST validity: ten minutes after T0. */
export const VALID_MS = 10 * MINUTE;

export const queuedData: MessageQueuedData = {
  messageId: 'msg_1',
  walletId: 'wal_1',
  accountId: 'acct_1',
  environment: 'TEST',
  to: '+233241234567',
  senderId: 'MyShop',
  body: 'Hello',
  type: 'transactional',
  carrier: 'MTN',
  encoding: 'GSM-7',
  segments: 2,
  credits: 2,
  validUntil: iso(VALID_MS),
  createdAt: iso(0),
  idempotencyKey: null,
};

export const queued: MessageEvent = { type: 'MessageQueued', data: queuedData };

/** Due one minute after T0; its TEST validity counts from then. */
export const SEND_AT_MS = MINUTE;
export const scheduledData: MessageScheduledData = {
  ...queuedData,
  validUntil: iso(SEND_AT_MS + VALID_MS),
  sendAt: iso(SEND_AT_MS),
};
export const scheduled: MessageEvent = { type: 'MessageScheduled', data: scheduledData };
export const due = (atMs = SEND_AT_MS): MessageEvent => ({ type: 'MessageDue', data: { at: iso(atMs) } });
export const canceled = (atMs = 30_000): MessageEvent => ({
  type: 'MessageCanceled',
  data: { at: iso(atMs), walletId: 'wal_1' },
});
export const claimed = (dispatcherId = 'd1', leaseUntilMs = 30_000): MessageEvent => ({
  type: 'MessageClaimed',
  data: { dispatcherId, leaseUntil: iso(leaseUntilMs) },
});
export const sent = (ids: readonly string[] = ['c1', 'c2'], atMs = 1_000): MessageEvent => ({
  type: 'MessageSent',
  data: { carrierMessageIds: ids, sentAt: iso(atMs), walletId: 'wal_1' },
});
export const deferred = (retryAtMs: number): MessageEvent => ({
  type: 'MessageSubmitDeferred',
  data: { reason: 'throttled', retryAt: iso(retryAtMs) },
});
export const reported = (
  carrierMessageId: string,
  status: FinalStatus = 'DELIVERED',
  atMs = 2_000,
): MessageEvent => ({
  type: 'DeliveryReported',
  data: { carrierMessageId, ...receiptFields(status), reportedAt: iso(atMs) },
});

function receiptFields(status: FinalStatus) {
  if (status === 'DELIVERED')
    return { status, carrierStatus: 'DELIVRD', errorCode: null, errorMessage: null };
  if (status === 'FAILED')
    return {
      status,
      carrierStatus: 'UNDELIV',
      errorCode: 'undeliverable',
      errorMessage: 'Handset unreachable',
    };
  return { status, carrierStatus: 'EXPIRED', errorCode: null, errorMessage: null };
}

export const receipt = (
  candidates: readonly string[],
  status: FinalStatus = 'DELIVERED',
  atMs = 2_000,
): ReceiptInput => ({
  carrier: 'MTN',
  environment: 'TEST',
  carrierMessageIdCandidates: candidates,
  ...receiptFields(status),
  reportedAt: at(atMs),
});

export const given = (...events: MessageEvent[]): MessageState => fold(messageDecider, events);
