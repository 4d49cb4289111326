import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import {
  ABANDONED_CLAIM_MS,
  decideIdempotency,
  foldIdempotency,
  IDEMPOTENCY_TTL_MS,
  requestHashOf,
} from './idempotent-send.service';
import { parseIdempotencyKey } from '../http/idempotency-key.header';

const T0 = new Date('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const recorded = (revision: number, type: string, data: object): RecordedEvent =>
  ({
    streamId: 'idempotency-x',
    revision: BigInt(revision),
    position: BigInt(revision + 1),
    type,
    data,
    metadata: {},
    recordedAt: T0,
  }) as RecordedEvent;
const claimed = (revision: number, requestHash = 'h1', claimedAt = T0) =>
  recorded(revision, 'IdempotencyKeyClaimed', {
    requestHash,
    messageId: 'msg_1',
    claimedAt: claimedAt.toISOString(),
  });

describe('Idempotency-Key rules', () => {
  it('claims a fresh key at no_stream', () => {
    expect(decideIdempotency(foldIdempotency([]), 'h1', T0)).toEqual({
      action: 'claim',
      expected: 'no_stream',
    });
  });

  it('replays the message for the same body, and says when a missing message means the first request died', () => {
    const state = foldIdempotency([claimed(0)]);
    expect(decideIdempotency(state, 'h1', at(1000))).toEqual({
      action: 'replay',
      id: 'msg_1',
      abandonedIfMissing: false,
    });
    expect(decideIdempotency(state, 'h1', at(ABANDONED_CLAIM_MS))).toMatchObject({
      abandonedIfMissing: true,
    });
  });

  it('replays a batch under the batch its claim names', () => {
    const state = foldIdempotency([
      recorded(0, 'IdempotencyKeyClaimed', {
        requestHash: 'h1',
        batchId: 'bat_1',
        claimedAt: T0.toISOString(),
      }),
    ]);
    expect(decideIdempotency(state, 'h1', at(1000))).toEqual({
      action: 'replay',
      id: 'bat_1',
      abandonedIfMissing: false,
    });
  });

  it('refuses a different body', () => {
    expect(decideIdempotency(foldIdempotency([claimed(0)]), 'h2', at(1))).toEqual({ action: 'mismatch' });
  });

  it('replays a recorded refusal', () => {
    const refusal = {
      kind: 'insufficient_credit',
      code: 'insufficient_credit',
      message: 'short',
      param: null,
      at: T0.toISOString(),
    };
    const state = foldIdempotency([claimed(0), recorded(1, 'IdempotentRequestRefused', refusal)]);
    expect(decideIdempotency(state, 'h1', at(1))).toEqual({ action: 'replay_refusal', refusal });
  });

  it('treats a claim older than 24 h, or a released one, as absent (claim again at the stream revision)', () => {
    expect(decideIdempotency(foldIdempotency([claimed(0)]), 'h2', at(IDEMPOTENCY_TTL_MS))).toEqual({
      action: 'claim',
      expected: 0n,
    });
    const released = foldIdempotency([
      claimed(0),
      recorded(1, 'IdempotencyKeyReleased', { reason: 'Error', at: T0.toISOString() }),
    ]);
    expect(decideIdempotency(released, 'h2', at(1))).toEqual({ action: 'claim', expected: 1n });
  });

  it('accepts 1–255 printable ASCII characters', () => {
    expect(parseIdempotencyKey(undefined)).toBeNull();
    expect(parseIdempotencyKey('a b~')).toBe('a b~');
    expect(parseIdempotencyKey('k'.repeat(255))).toHaveLength(255);
    for (const bad of ['', 'k'.repeat(256), 'é', 'a\nb', ['a', 'b']]) {
      expect(() => parseIdempotencyKey(bad)).toThrow(
        expect.objectContaining({ code: 'invalid_idempotency_key' }),
      );
    }
  });

  it('hashes the four send fields as sent', () => {
    const body = { to: '+233241234567', sender_id: 'Shop', message: 'hi', type: 'transactional' };
    expect(requestHashOf(body)).toBe(requestHashOf({ ...body, extra: 1 }));
    expect(requestHashOf(body)).not.toBe(requestHashOf({ ...body, message: 'hi!' }));
  });
});
