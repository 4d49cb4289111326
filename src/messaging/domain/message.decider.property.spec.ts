import fc from 'fast-check';
import type { SubmitResult } from '../ports/carrier.port';
import { at, queuedData, receipt, scheduledData } from './message.test-support';
import {
  cancel,
  evolve,
  expire,
  initialState,
  isTerminal,
  MessageState,
  queue,
  queueDue,
  recordReceipt,
  recordSubmitResult,
  reject,
} from './message.decider';
import type { MessageEvent } from './message.events';
import type { DomainError } from '../../shared/domain-error';
import { ok, type Result } from '../../shared/result';

type Step = (state: MessageState) => Result<MessageEvent[], DomainError>;

const dispatcher = fc.constantFrom('d1', 'd2');
const time = fc.integer({ min: 0, max: 15 * 60_000 }).map(at); // around the 10-minute validity
const carrierId = fc.constantFrom('c1', 'c2', 'c3');
const submitResult: fc.Arbitrary<SubmitResult> = fc.oneof(
  fc
    .uniqueArray(carrierId, { minLength: 1, maxLength: 2 })
    .map((ids) => ({ outcome: 'accepted' as const, carrierMessageIds: ids })),
  fc.constant({ outcome: 'rejected' as const, errorCode: 'rejected', errorMessage: 'No' }),
  fc
    .integer({ min: 0, max: 60_000 })
    .map((afterMs) => ({ outcome: 'retry' as const, afterMs, reason: 'throttled' })),
);

const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.constant<Step>((s) => queue(s, queuedData)), weight: 1 },
  { arbitrary: time.map<Step>((now) => (s) => reject(s, { reason: 'recovered', now })), weight: 1 },
  { arbitrary: time.map<Step>((now) => (s) => queueDue(s, { now })), weight: 2 },
  {
    arbitrary: time.map<Step>((now) => (s) => cancel(s, { walletId: 'wal_1', environment: 'TEST', now })),
    weight: 1,
  },
  {
    // Streams recorded before dispatch leases have per-message claims (of QUEUED messages): they still fold.
    arbitrary: fc.tuple(dispatcher, time).map<Step>(
      ([dispatcherId, now]) =>
        (s) =>
          ok(
            s.status === 'QUEUED'
              ? [
                  {
                    type: 'MessageClaimed',
                    data: { dispatcherId, leaseUntil: new Date(now.getTime() + 30_000).toISOString() },
                  },
                ]
              : [],
          ),
    ),
    weight: 1,
  },
  {
    arbitrary: fc.tuple(dispatcher, submitResult, time).map<Step>(
      ([dispatcherId, result, now]) =>
        (s) =>
          recordSubmitResult(s, { dispatcherId, result, now }),
    ),
    weight: 3,
  },
  {
    arbitrary: fc
      .tuple(
        fc.array(carrierId, { minLength: 1, maxLength: 2 }),
        fc.constantFrom('DELIVERED', 'DELIVERED', 'FAILED', 'EXPIRED' as const),
        fc.nat(20 * 60_000),
      )
      .map<Step>(
        ([ids, status, ms]) =>
          (s) =>
            recordReceipt(s, receipt(ids, status, ms)),
      ),
    weight: 6,
  },
  { arbitrary: time.map<Step>((now) => (s) => expire(s, now, 15_000)), weight: 1 },
);

const { sendAt, ...scheduledFacts } = scheduledData;
const start: readonly Step[] = [(s) => queue(s, queuedData), (s) => queue(s, scheduledFacts, sendAt)];

/** Mostly a queued or scheduled message to work on; sometimes an empty stream or a rejected one. */
const history = fc
  .tuple(fc.nat(9), fc.array(step, { maxLength: 40 }))
  .map(([n, steps]) => (n === 0 ? steps : [start[n % 2], ...steps]));

const NEXT: Record<MessageState['status'], readonly MessageState['status'][]> = {
  NONE: ['QUEUED', 'SCHEDULED', 'REJECTED'],
  SCHEDULED: ['QUEUED', 'CANCELED', 'EXPIRED'],
  CANCELED: [],
  QUEUED: ['SENT', 'FAILED', 'EXPIRED'],
  SENT: ['DELIVERED', 'FAILED', 'EXPIRED'],
  DELIVERED: [],
  FAILED: [],
  EXPIRED: [],
  REJECTED: [],
};

describe('message decider (property)', () => {
  it('never leaves a terminal state, and only moves along the documented transitions', () => {
    fc.assert(
      fc.property(history, (steps) => {
        let state = initialState();
        for (const decide of steps) {
          const before = state;
          const decision = decide(state);
          if (!decision.ok) continue;
          for (const event of decision.value) state = evolve(state, event);
          if (isTerminal(before.status)) {
            expect(decision.value).toEqual([]);
            expect(state).toBe(before);
          } else if (state.status !== before.status) {
            expect(NEXT[before.status]).toContain(state.status);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });
});
