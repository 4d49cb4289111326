import { base62 } from '../../shared/ids';
import type { Environment } from '../ports/carrier.port';

/** Stream of one batch send's record (POST /v1/messages/batch). */
export const batchStream = (batchId: string) => `batch-${batchId}`;

/**
 * A batch's messages are named after the batch and their place in it: a batch finished after an
 * interruption names the same messages again, so none is sent twice. Ids stay time-ordered.
 */
export const batchMessageId = (batchId: string, index: number) =>
  `msg_${batchId.slice('bat_'.length)}${base62(index, 2)}`;

/** One slot of the batch's answer: the message sent, or why the item was refused (a 400 of its own). */
export type BatchItemRecord =
  | { readonly messageId: string }
  | { readonly error: { readonly code: string; readonly message: string; readonly param: string | null } };

/**
 * The batch as answered: each item's message or refusal, in order. Recorded with the batch's
 * reservations and messages (one write where the store allows it): a replay of its
 * Idempotency-Key answers from it, and `GET /v1/messages?batch=` knows whose batch it is.
 */
export type BatchSubmittedData = {
  readonly batchId: string;
  readonly walletId: string;
  readonly accountId: string;
  readonly environment: Environment;
  readonly items: readonly BatchItemRecord[];
  readonly accepted: number;
  readonly refused: number;
  readonly createdAt: string;
  readonly idempotencyKey: string | null;
};

export type BatchEvent = { readonly type: 'BatchSubmitted'; readonly data: BatchSubmittedData };
