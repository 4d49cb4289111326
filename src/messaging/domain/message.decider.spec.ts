import type { DomainError } from '../../shared/domain-error';
import { err, ok } from '../../shared/result';
import {
  at,
  claimed,
  deferred,
  given,
  iso,
  MINUTE,
  queued,
  queuedData,
  receipt,
  reported,
  canceled,
  due,
  scheduled,
  scheduledData,
  SEND_AT_MS,
  sent,
  VALID_MS,
} from './message.test-support';
import {
  cancel,
  queueDue,
  readyToSubmit,
  expire,
  finishedBy,
  isTerminal,
  queue,
  recordReceipt,
  recordSubmitResult,
  reject,
} from './message.decider';
import { MessageEvent, messageStream } from './message.events';

const refused = (code: string) => err(expect.objectContaining<Partial<DomainError>>({ code }));
const delivered: MessageEvent = {
  type: 'MessageDelivered',
  data: { errorCode: null, errorMessage: null, carrierStatus: 'DELIVRD', at: iso(2_000), walletId: 'wal_1' },
};

describe('message decider', () => {
  it('lives in the stream message-<id>', () => expect(messageStream('msg_1')).toBe('message-msg_1'));

  describe('queue', () => {
    it('starts an empty stream', () => {
      expect(queue(given(), queuedData)).toEqual(ok([queued]));
    });

    it('records nothing again for a message already queued', () => {
      expect(queue(given(queued), queuedData)).toEqual(ok([]));
    });

    it('refuses a rejected message', () => {
      const rejected = given({ type: 'MessageRejected', data: { reason: 'x', at: iso(0) } });
      expect(queue(rejected, queuedData)).toEqual(refused('message_rejected'));
    });

    it('folds into a QUEUED message', () => {
      expect(given(queued)).toMatchObject({
        status: 'QUEUED',
        messageId: 'msg_1',
        sequence: 1,
        updatedAt: iso(0),
        claim: null,
      });
    });
  });

  describe('reject', () => {
    it('records a message that was never accepted on an empty stream', () => {
      expect(reject(given(), { reason: 'reservation without a message', now: at(5) })).toEqual(
        ok([{ type: 'MessageRejected', data: { reason: 'reservation without a message', at: iso(5) } }]),
      );
    });

    it('is idempotent', () => {
      const rejected = given({ type: 'MessageRejected', data: { reason: 'x', at: iso(0) } });
      expect(reject(rejected, { reason: 'x', now: at(5) })).toEqual(ok([]));
      expect(isTerminal(rejected.status)).toBe(true);
    });

    it('refuses a queued message', () => {
      expect(reject(given(queued), { reason: 'x', now: at(5) })).toEqual(refused('message_exists'));
    });
  });

  describe('readyToSubmit', () => {
    const cmd = (dispatcherId = 'd1', nowMs = 0) => ({ dispatcherId, now: at(nowMs) });

    it('lets a dispatcher submit a queued message, recording nothing', () => {
      expect(readyToSubmit(given(queued), cmd())).toEqual(ok(given(queued)));
    });

    it('respects a per-message claim recorded before dispatch leases, while it runs', () => {
      expect(readyToSubmit(given(queued, claimed('d1', 30_000)), cmd('d2', 29_999))).toEqual(
        refused('message_claimed'),
      );
      expect(readyToSubmit(given(queued, claimed('d1', 30_000)), cmd('d2', 30_000)).ok).toBe(true);
      expect(readyToSubmit(given(queued, claimed('d1', 30_000)), cmd('d1', 10_000)).ok).toBe(true);
    });

    it('refuses before a deferral is over, and allows it after', () => {
      const state = given(queued, deferred(5_000));
      expect(readyToSubmit(state, cmd('d2', 4_999))).toEqual(refused('submit_deferred'));
      expect(readyToSubmit(state, cmd('d2', 5_000)).ok).toBe(true);
    });

    it('refuses a message past its validity', () => {
      expect(readyToSubmit(given(queued), cmd('d1', VALID_MS))).toEqual(refused('message_validity_ended'));
    });

    it('refuses a message already SENT or terminal', () => {
      expect(readyToSubmit(given(queued, sent()), cmd())).toEqual(refused('message_not_queued'));
      expect(readyToSubmit(given(queued, sent(), reported('c1'), reported('c2'), delivered), cmd())).toEqual(
        refused('message_not_queued'),
      );
    });

    it('refuses a message that does not exist', () => {
      expect(readyToSubmit(given(), cmd())).toEqual(refused('resource_missing'));
    });
  });

  describe('recordSubmitResult', () => {
    const holding = () => given(queued, claimed('d1'));

    it('records SENT with the carrier ids of an acceptance', () => {
      const result = { outcome: 'accepted', carrierMessageIds: ['c1', 'c2'] } as const;
      expect(recordSubmitResult(holding(), { dispatcherId: 'd1', result, now: at(1_000) })).toEqual(
        ok([sent()]),
      );
    });

    it('records an acceptance even from a dispatcher that lost its claim (the SMS left)', () => {
      const result = { outcome: 'accepted', carrierMessageIds: ['c1'] } as const;
      expect(recordSubmitResult(holding(), { dispatcherId: 'd2', result, now: at(1_000) })).toEqual(
        ok([sent(['c1'])]),
      );
    });

    it('fails a message the carrier rejected', () => {
      const result = { outcome: 'rejected', errorCode: 'rejected', errorMessage: 'No' } as const;
      expect(recordSubmitResult(holding(), { dispatcherId: 'd1', result, now: at(1_000) })).toEqual(
        ok([
          {
            type: 'MessageFailed',
            data: {
              errorCode: 'rejected',
              errorMessage: 'No',
              carrierStatus: null,
              at: iso(1_000),
              walletId: 'wal_1',
            },
          },
        ]),
      );
    });

    it('defers and releases the claim when the carrier asks to retry', () => {
      const result = { outcome: 'retry', afterMs: 2_000, reason: 'throttled' } as const;
      const decision = recordSubmitResult(holding(), { dispatcherId: 'd1', result, now: at(3_000) });
      expect(decision).toEqual(ok([deferred(5_000)]));
      expect(given(queued, claimed('d1'), deferred(5_000))).toMatchObject({
        status: 'QUEUED',
        claim: null,
        retryAt: iso(5_000),
        deferrals: 1,
      });
    });

    it('takes a rejection or deferral from any dispatcher of a message never claimed (the lease decides who submits)', () => {
      const retry = { outcome: 'retry', afterMs: 2_000, reason: 'throttled' } as const;
      expect(
        recordSubmitResult(given(queued), { dispatcherId: 'd2', result: retry, now: at(3_000) }),
      ).toEqual(ok([deferred(5_000)]));
    });

    it('refuses a rejection or deferral from a dispatcher not holding the claim', () => {
      const retry = { outcome: 'retry', afterMs: 2_000, reason: 'throttled' } as const;
      const rejected = { outcome: 'rejected', errorCode: 'x', errorMessage: 'y' } as const;
      expect(recordSubmitResult(holding(), { dispatcherId: 'd2', result: retry, now: at(0) })).toEqual(
        refused('claim_lost'),
      );
      expect(recordSubmitResult(holding(), { dispatcherId: 'd2', result: rejected, now: at(0) })).toEqual(
        refused('claim_lost'),
      );
    });

    it('records nothing once SENT or terminal', () => {
      const result = { outcome: 'accepted', carrierMessageIds: ['c9'] } as const;
      expect(
        recordSubmitResult(given(queued, claimed(), sent()), { dispatcherId: 'd1', result, now: at(0) }),
      ).toEqual(ok([]));
      const expired = given(queued, {
        type: 'MessageExpired',
        data: { errorCode: null, errorMessage: 'x', carrierStatus: null, at: iso(0) },
      });
      expect(recordSubmitResult(expired, { dispatcherId: 'd1', result, now: at(0) })).toEqual(ok([]));
    });

    it('refuses a message that does not exist', () => {
      const result = { outcome: 'accepted', carrierMessageIds: ['c1'] } as const;
      expect(recordSubmitResult(given(), { dispatcherId: 'd1', result, now: at(0) })).toEqual(
        refused('resource_missing'),
      );
    });

    it('folds SENT: status, sequence, ids and claim released', () => {
      expect(given(queued, claimed(), sent())).toMatchObject({
        status: 'SENT',
        sequence: 2,
        claim: null,
        sentAt: iso(1_000),
        updatedAt: iso(1_000),
        carrierMessageIds: ['c1', 'c2'],
      });
    });
  });

  describe('recordReceipt', () => {
    const reportOf = (event: MessageEvent) =>
      (event as Extract<MessageEvent, { type: 'DeliveryReported' }>).data;
    const sentState = () => given(queued, claimed(), sent());

    it('records a part and waits for the others', () => {
      expect(recordReceipt(sentState(), receipt(['c1']))).toEqual(ok([reported('c1')]));
    });

    it('matches any spelling of the carrier id', () => {
      expect(recordReceipt(sentState(), receipt(['0xc1', 'c2']))).toEqual(ok([reported('c2')]));
    });

    it('delivers when every part is delivered: the last receipt recorded inside the outcome', () => {
      const state = given(queued, claimed(), sent(), reported('c1'));
      expect(recordReceipt(state, receipt(['c2'], 'DELIVERED', 3_000))).toEqual(
        ok([
          {
            type: 'MessageDelivered',
            data: {
              errorCode: null,
              errorMessage: null,
              carrierStatus: 'DELIVRD',
              at: iso(3_000),
              report: reportOf(reported('c2', 'DELIVERED', 3_000)),
              walletId: 'wal_1',
            },
          },
        ]),
      );
    });

    it('fails when any part failed, with that part’s error', () => {
      const state = given(queued, claimed(), sent(), reported('c1', 'FAILED'));
      expect(recordReceipt(state, receipt(['c2'], 'DELIVERED', 3_000))).toEqual(
        ok([
          {
            type: 'MessageFailed',
            data: {
              errorCode: 'undeliverable',
              errorMessage: 'Handset unreachable',
              carrierStatus: 'UNDELIV',
              at: iso(3_000),
              report: reportOf(reported('c2', 'DELIVERED', 3_000)),
              walletId: 'wal_1',
            },
          },
        ]),
      );
    });

    it('fails rather than expires when one part failed and another expired', () => {
      const state = given(queued, claimed(), sent(), reported('c1', 'EXPIRED'));
      const decision = recordReceipt(state, receipt(['c2'], 'FAILED'));
      expect(decision.ok && decision.value.map((e) => e.type)).toEqual(['MessageFailed']);
    });

    it('expires when a part expired and none failed', () => {
      const state = given(queued, claimed(), sent(), reported('c1', 'DELIVERED'));
      expect(recordReceipt(state, receipt(['c2'], 'EXPIRED'))).toEqual(
        ok([
          {
            type: 'MessageExpired',
            data: {
              errorCode: null,
              errorMessage: null,
              carrierStatus: 'EXPIRED',
              at: iso(2_000),
              report: reportOf(reported('c2', 'EXPIRED')),
              walletId: 'wal_1',
            },
          },
        ]),
      );
    });

    it('settles a single-part message on its one receipt, in one event', () => {
      const state = given(queued, claimed(), sent(['c1']));
      const decision = recordReceipt(state, receipt(['c1']));
      expect(decision).toEqual(
        ok([{ type: 'MessageDelivered', data: { ...delivered.data, report: reportOf(reported('c1')) } }]),
      );
      if (decision.ok)
        expect(given(queued, claimed(), sent(['c1']), ...decision.value)).toMatchObject({
          status: 'DELIVERED',
          sequence: 3,
          reports: [reportOf(reported('c1'))],
          outcome: { status: 'DELIVERED', carrierStatus: 'DELIVRD', errorCode: null, at: iso(2_000) },
        });
    });

    it('folds streams recorded before: a DeliveryReported of its own, then the outcome', () => {
      expect(given(queued, claimed(), sent(['c1']), reported('c1'), delivered)).toEqual(
        given(queued, claimed(), sent(['c1']), {
          type: 'MessageDelivered',
          data: { ...delivered.data, report: reportOf(reported('c1')) },
        }),
      );
    });

    it('ignores a duplicate receipt for a part', () => {
      expect(
        recordReceipt(given(queued, claimed(), sent(), reported('c1')), receipt(['c1'], 'FAILED')),
      ).toEqual(ok([]));
    });

    it('ignores a receipt for an unknown part', () => {
      expect(recordReceipt(sentState(), receipt(['c9']))).toEqual(ok([]));
    });

    it('ignores a receipt before SENT is recorded (its part ids are not known yet)', () => {
      expect(recordReceipt(given(queued, claimed()), receipt(['c1']))).toEqual(ok([]));
    });

    it('ignores receipts after a terminal state', () => {
      const done = given(queued, claimed(), sent(['c1']), reported('c1'), delivered);
      expect(done.status).toBe('DELIVERED');
      expect(recordReceipt(done, receipt(['c1'], 'FAILED'))).toEqual(ok([]));
    });

    it('ignores receipts for a message that does not exist', () => {
      expect(recordReceipt(given(), receipt(['c1']))).toEqual(ok([]));
    });

    it("ignores a receipt from another route's connection or from the other environment", () => {
      expect(recordReceipt(sentState(), { ...receipt(['c1']), carrier: 'TELECEL' })).toEqual(ok([]));
      expect(recordReceipt(sentState(), { ...receipt(['c1']), environment: 'LIVE' })).toEqual(ok([]));
    });
  });

  describe('scheduled sends', () => {
    const { sendAt, ...accepted } = scheduledData;
    const owner = { walletId: 'wal_1', environment: 'TEST' as const };

    it('starts an empty stream as SCHEDULED, its validity counting from send_at', () => {
      expect(queue(given(), accepted, sendAt)).toEqual(ok([scheduled]));
      expect(given(scheduled)).toMatchObject({
        status: 'SCHEDULED',
        sendAt: iso(SEND_AT_MS),
        validUntil: iso(SEND_AT_MS + VALID_MS),
        sequence: 1,
      });
    });

    it('becomes QUEUED once due, and not before', () => {
      expect(queueDue(given(scheduled), { now: at(SEND_AT_MS - 1) })).toEqual(refused('message_not_due'));
      expect(queueDue(given(scheduled), { now: at(SEND_AT_MS) })).toEqual(ok([due()]));
      expect(given(scheduled, due())).toMatchObject({
        status: 'QUEUED',
        sequence: 2,
        updatedAt: iso(SEND_AT_MS),
      });
    });

    it('is submitted only after it became QUEUED', () => {
      const now = at(SEND_AT_MS + 1);
      expect(readyToSubmit(given(scheduled), { dispatcherId: 'd1', now })).toEqual(
        refused('message_not_queued'),
      );
      expect(readyToSubmit(given(scheduled, due()), { dispatcherId: 'd1', now }).ok).toBe(true);
    });

    it('records nothing to make due a message queued at once, already due or canceled', () => {
      const now = at(SEND_AT_MS);
      expect(queueDue(given(queued), { now })).toEqual(ok([]));
      expect(queueDue(given(scheduled, due()), { now })).toEqual(ok([]));
      expect(queueDue(given(scheduled, canceled()), { now })).toEqual(ok([]));
      expect(queueDue(given(), { now })).toEqual(refused('resource_missing'));
    });

    it('cancels a SCHEDULED message once: CANCELED is terminal', () => {
      expect(cancel(given(scheduled), { ...owner, now: at(30_000) })).toEqual(ok([canceled()]));
      const state = given(scheduled, canceled());
      expect(state).toMatchObject({ status: 'CANCELED', sequence: 2, updatedAt: iso(30_000) });
      expect(isTerminal(state.status)).toBe(true);
      expect(cancel(state, { ...owner, now: at(31_000) })).toEqual(refused('message_not_cancelable'));
      expect(given(scheduled, canceled(), due())).toEqual(state);
    });

    it('refuses to cancel a message that is no longer SCHEDULED', () => {
      for (const state of [given(queued), given(scheduled, due()), given(queued, sent())]) {
        expect(cancel(state, { ...owner, now: at(SEND_AT_MS) })).toEqual(refused('message_not_cancelable'));
      }
    });

    it("answers another wallet's, environment's or an unknown message as not found", () => {
      const now = at(1);
      expect(cancel(given(scheduled), { walletId: 'wal_2', environment: 'TEST', now })).toEqual(
        refused('resource_missing'),
      );
      expect(cancel(given(scheduled), { walletId: 'wal_1', environment: 'LIVE', now })).toEqual(
        refused('resource_missing'),
      );
      expect(cancel(given(), { ...owner, now })).toEqual(refused('resource_missing'));
    });

    it('loses to MessageDue recorded first, and MessageDue loses to a cancel recorded first', () => {
      expect(given(scheduled, due(), canceled())).toMatchObject({ status: 'QUEUED' });
      expect(given(scheduled, canceled(), due())).toMatchObject({ status: 'CANCELED' });
    });

    it('expires a SCHEDULED message nobody made due within its validity', () => {
      const end = SEND_AT_MS + VALID_MS;
      expect(expire(given(scheduled), at(end - 1))).toEqual(ok([]));
      expect(expire(given(scheduled), at(end))).toEqual(
        ok([
          {
            type: 'MessageExpired',
            data: {
              errorCode: null,
              errorMessage: 'Not sent within the validity period',
              carrierStatus: null,
              at: iso(end),
              walletId: 'wal_1',
            },
          },
        ]),
      );
    });
  });

  describe('expire', () => {
    const expired = (errorMessage: string, atMs = VALID_MS) => ({
      type: 'MessageExpired',
      data: { errorCode: null, errorMessage, carrierStatus: null, at: iso(atMs), walletId: 'wal_1' },
    });

    it('expires a SENT message once its validity is over', () => {
      const state = given(queued, claimed(), sent());
      expect(expire(state, at(VALID_MS - 1))).toEqual(ok([]));
      expect(expire(state, at(VALID_MS))).toEqual(
        ok([expired('No delivery report within the validity period')]),
      );
    });

    it('expires a QUEUED message nobody is submitting', () => {
      expect(expire(given(queued), at(VALID_MS))).toEqual(
        ok([expired('Not sent within the validity period')]),
      );
    });

    it('gives a QUEUED message a grace for a submission started just before its validity ended', () => {
      expect(expire(given(queued), at(VALID_MS + 14_999), 15_000)).toEqual(ok([]));
      expect(expire(given(queued), at(VALID_MS + 15_000), 15_000)).toEqual(
        ok([expired('Not sent within the validity period', VALID_MS + 15_000)]),
      );
      // A SENT message waits for nothing but its validity.
      expect(expire(given(queued, sent()), at(VALID_MS), 15_000).ok).toBe(true);
      expect(expire(given(queued, sent()), at(VALID_MS), 15_000)).toEqual(
        ok([expired('No delivery report within the validity period')]),
      );
    });

    it('waits while a per-message claim (recorded before dispatch leases) may have a submission in flight', () => {
      const state = given(queued, claimed('d1', VALID_MS + MINUTE));
      expect(expire(state, at(VALID_MS))).toEqual(ok([]));
      expect(expire(state, at(VALID_MS + MINUTE))).toEqual(
        ok([expired('Not sent within the validity period', VALID_MS + MINUTE)]),
      );
    });

    it('leaves terminal, rejected and missing messages alone', () => {
      expect(expire(given(queued, claimed(), sent(['c1']), reported('c1'), delivered), at(VALID_MS))).toEqual(
        ok([]),
      );
      expect(
        expire(given({ type: 'MessageRejected', data: { reason: 'x', at: iso(0) } }), at(VALID_MS)),
      ).toEqual(ok([]));
      expect(expire(given(), at(VALID_MS))).toEqual(ok([]));
    });
  });

  describe('evolve', () => {
    it('never moves updatedAt backwards', () => {
      const state = given(queued, claimed(), sent(['c1'], 5_000), reported('c1', 'DELIVERED', 4_000), {
        type: 'MessageDelivered',
        data: { errorCode: null, errorMessage: null, carrierStatus: 'DELIVRD', at: iso(4_000) },
      });
      expect(state).toMatchObject({ status: 'DELIVERED', updatedAt: iso(5_000) });
    });

    it('lets a terminal state absorb any later event', () => {
      const failed = given(queued, {
        type: 'MessageFailed',
        data: { errorCode: 'rejected', errorMessage: 'x', carrierStatus: null, at: iso(1) },
      });
      expect(
        given(
          queued,
          {
            type: 'MessageFailed',
            data: { errorCode: 'rejected', errorMessage: 'x', carrierStatus: null, at: iso(1) },
          },
          sent(),
        ),
      ).toEqual(failed);
    });
  });

  describe('finishedBy: what outcome metrics count, once', () => {
    const recorded = (events: MessageEvent[], ...before: MessageEvent[]) =>
      ok({ state: given(...before, ...events), events });

    it('is the finished message when the recorded events end it', () => {
      const finished = finishedBy(recorded([delivered], queued, claimed(), sent()));
      expect(finished).toMatchObject({
        status: 'DELIVERED',
        carrier: queuedData.carrier,
        environment: queuedData.environment,
        createdAt: queuedData.createdAt,
        outcome: { status: 'DELIVERED', at: iso(2_000) },
      });
    });

    it('is null for intermediate events, a no-op and a refusal', () => {
      expect(finishedBy(recorded([sent()], queued, claimed()))).toBeNull();
      expect(finishedBy(recorded([], queued, claimed(), sent(), delivered))).toBeNull();
      expect(finishedBy(refused('message_rejected'))).toBeNull();
    });
  });
});
