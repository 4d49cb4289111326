import { fold } from '../../shared/decider';
import type { DomainError } from '../../shared/domain-error';
import { err, ok } from '../../shared/result';
import {
  checkoutDecider,
  confirmPayment,
  expire,
  fail,
  finishedBy,
  recordRefund,
  recordRefundFailure,
  start,
  startPayment,
  statusAt,
  succeed,
  type StartCheckout,
} from './checkout.decider';
import { CheckoutEvent, checkoutStream } from './checkout.events';

const T0 = new Date('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const iso = (ms: number) => at(ms).toISOString();
const TTL = 30 * 60 * 1000;

const startCmd: StartCheckout = {
  checkoutId: 'chk_1',
  walletId: 'wal_1',
  accountId: 'acct_1',
  environment: 'TEST',
  packageId: 'pkg_starter',
  amount: 5000,
  currency: 'GHS',
  sms: 1000,
  successUrl: 'https://shop.example/thanks',
  cancelUrl: null,
  provider: 'test',
  reference: 'chk_1',
  ttlMs: TTL,
  now: T0,
};

const started: CheckoutEvent = {
  type: 'CheckoutStarted',
  data: {
    checkoutId: 'chk_1',
    walletId: 'wal_1',
    accountId: 'acct_1',
    environment: 'TEST',
    packageId: 'pkg_starter',
    amount: 5000,
    currency: 'GHS',
    sms: 1000,
    successUrl: 'https://shop.example/thanks',
    cancelUrl: null,
    provider: 'test',
    reference: 'chk_1',
    expiresAt: iso(TTL),
    createdAt: iso(0),
  },
};
const confirmed: CheckoutEvent = {
  type: 'PaymentConfirmed',
  data: { reference: 'chk_1', amount: 5000, currency: 'GHS', provider: 'test', confirmedAt: iso(1000) },
};
const succeeded: CheckoutEvent = { type: 'CheckoutSucceeded', data: { sms: 1000, succeededAt: iso(2000) } };
const failed: CheckoutEvent = { type: 'CheckoutFailed', data: { reason: 'declined', failedAt: iso(1000) } };
const expired: CheckoutEvent = { type: 'CheckoutExpired', data: { expiredAt: iso(TTL) } };
const paymentStarted: CheckoutEvent = {
  type: 'PaymentStarted',
  data: { reference: 'chk_1', provider: 'test', redirectUrl: 'https://pay.example/x', startedAt: iso(500) },
};

const given = (...events: CheckoutEvent[]) => fold(checkoutDecider, events);
const refused = (code: string) => err(expect.objectContaining<Partial<DomainError>>({ code }));
const payment = { reference: 'chk_1', amount: 5000, currency: 'GHS', provider: 'test' as const };

describe('checkout decider', () => {
  it('lives in the stream checkout-<id>', () => expect(checkoutStream('chk_1')).toBe('checkout-chk_1'));

  describe('start', () => {
    it('starts a pending checkout that expires after the TTL', () => {
      expect(start(given(), startCmd)).toEqual(ok([started]));
      expect(given(started)).toMatchObject({ status: 'pending', payment: null, creditedSms: 0 });
    });
    it('records nothing when the same start is repeated', () =>
      expect(start(given(started), startCmd)).toEqual(ok([])));
    it('refuses another checkout on the same stream', () =>
      expect(start(given(started), { ...startCmd, reference: 'other' })).toEqual(refused('checkout_exists')));
    it('refuses a non-integer or non-positive amount, sms or ttl', () => {
      expect(start(given(), { ...startCmd, amount: 50.5 })).toEqual(refused('invalid_amount'));
      expect(start(given(), { ...startCmd, amount: 0 })).toEqual(refused('invalid_amount'));
      expect(start(given(), { ...startCmd, sms: 0 })).toEqual(refused('invalid_sms'));
      expect(start(given(), { ...startCmd, ttlMs: 0 })).toEqual(refused('invalid_ttl'));
    });
  });

  describe('statusAt', () => {
    it('is expired once the TTL passed without a payment', () => {
      expect(statusAt(given(started), at(TTL - 1))).toBe('pending');
      expect(statusAt(given(started), at(TTL))).toBe('expired');
    });
    it('stays pending after the TTL when paid but not yet credited, then succeeded', () => {
      expect(statusAt(given(started, confirmed), at(TTL + 1))).toBe('pending');
      expect(statusAt(given(started, confirmed, succeeded), at(TTL + 1))).toBe('succeeded');
    });
  });

  describe('startPayment', () => {
    const cmd = { redirectUrl: 'https://pay.example/x', now: at(500) };
    it('records where the shopper pays, once', () => {
      expect(startPayment(given(started), cmd)).toEqual(ok([paymentStarted]));
      expect(startPayment(given(started, paymentStarted), cmd)).toEqual(ok([]));
    });
    it('refuses a missing, expired, failed or paid checkout', () => {
      expect(startPayment(given(), cmd)).toEqual(refused('resource_missing'));
      expect(startPayment(given(started), { ...cmd, now: at(TTL) })).toEqual(refused('checkout_expired'));
      expect(startPayment(given(started, failed), cmd)).toEqual(refused('checkout_failed'));
      expect(startPayment(given(started, confirmed), cmd)).toEqual(refused('checkout_paid'));
    });
  });

  describe('confirmPayment', () => {
    it('confirms exactly the asked amount and currency', () => {
      expect(confirmPayment(given(started), { ...payment, now: at(1000) })).toEqual(ok([confirmed]));
      expect(confirmPayment(given(started), { ...payment, currency: 'ghs', now: at(1000) })).toEqual(
        ok([confirmed]),
      );
    });
    it('records nothing for a payment already confirmed or a succeeded checkout (never twice)', () => {
      expect(confirmPayment(given(started, confirmed), { ...payment, now: at(1500) })).toEqual(ok([]));
      expect(confirmPayment(given(started, confirmed, succeeded), { ...payment, now: at(TTL * 2) })).toEqual(
        ok([]),
      );
    });
    it('fails the checkout and refunds the payment, with the reason, on an amount or currency mismatch', () => {
      for (const mismatch of [{ amount: 4999 }, { amount: 5001 }, { currency: 'NGN' }]) {
        const taken = { ...payment, ...mismatch };
        const decision = confirmPayment(given(started), { ...taken, now: at(1000) });
        const reason = expect.stringContaining('mismatch');
        expect(decision).toEqual(
          ok([
            { type: 'CheckoutFailed', data: { reason, failedAt: iso(1000) } },
            {
              type: 'RefundRequested',
              data: {
                reference: 'chk_1',
                amount: taken.amount,
                currency: taken.currency,
                provider: 'test',
                reason,
                requestedAt: iso(1000),
              },
            },
          ]),
        );
      }
    });
    it('refuses another reference or provider, or a missing checkout', () => {
      expect(confirmPayment(given(started), { ...payment, reference: 'chk_2', now: at(1000) })).toEqual(
        refused('payment_mismatch'),
      );
      expect(confirmPayment(given(started), { ...payment, provider: 'paystack', now: at(1000) })).toEqual(
        refused('payment_mismatch'),
      );
      expect(confirmPayment(given(), { ...payment, now: at(1000) })).toEqual(refused('resource_missing'));
    });
    it('accepts the exact amount taken after the deadline, even once expired (the shopper paid what was asked)', () => {
      const late = { ...confirmed, data: { ...confirmed.data, confirmedAt: iso(TTL + 5000) } };
      expect(confirmPayment(given(started), { ...payment, now: at(TTL + 5000) })).toEqual(ok([late]));
      expect(confirmPayment(given(started, expired), { ...payment, now: at(TTL + 5000) })).toEqual(
        ok([late]),
      );
      expect(succeed(given(started, expired, late), { now: at(TTL + 6000) })).toEqual(
        ok([{ type: 'CheckoutSucceeded', data: { sms: 1000, succeededAt: iso(TTL + 6000) } }]),
      );
    });
    it('refunds a payment taken after the checkout failed, once', () => {
      const decision = confirmPayment(given(started, failed), { ...payment, now: at(2000) });
      expect(decision).toEqual(
        ok([
          {
            type: 'RefundRequested',
            data: expect.objectContaining({
              amount: 5000,
              currency: 'GHS',
              reason: expect.stringContaining('failed'),
            }),
          },
        ]),
      );
      const requested = decision.ok ? decision.value : [];
      expect(confirmPayment(given(started, failed, ...requested), { ...payment, now: at(3000) })).toEqual(
        ok([]),
      );
      expect(given(started, failed, ...requested).refund).toMatchObject({
        status: 'requested',
        amount: 5000,
      });
    });
    it('the TEST page (paying now) refuses an expired or failed checkout: nothing was taken', () => {
      const payingNow = { ...payment, payingNow: true };
      expect(confirmPayment(given(started), { ...payingNow, now: at(TTL) })).toEqual(
        refused('checkout_expired'),
      );
      expect(confirmPayment(given(started, expired), { ...payingNow, now: at(1000) })).toEqual(
        refused('checkout_expired'),
      );
      expect(confirmPayment(given(started, failed), { ...payingNow, now: at(1000) })).toEqual(
        refused('checkout_failed'),
      );
    });
  });

  describe('refunds', () => {
    const requested = {
      type: 'RefundRequested' as const,
      data: {
        reference: 'chk_1',
        amount: 5000,
        currency: 'GHS',
        provider: 'test' as const,
        reason: 'paid after the checkout failed',
        requestedAt: iso(2000),
      },
    };
    it('records the provider accepting the refund, once', () => {
      const refunded = recordRefund(given(started, failed, requested), { refundId: 'rf_1', now: at(3000) });
      expect(refunded).toEqual(
        ok([
          { type: 'PaymentRefunded', data: { reference: 'chk_1', refundId: 'rf_1', refundedAt: iso(3000) } },
        ]),
      );
      const after = given(started, failed, requested, ...(refunded.ok ? refunded.value : []));
      expect(after.refund?.status).toBe('refunded');
      expect(recordRefund(after, { refundId: 'rf_2', now: at(4000) })).toEqual(ok([]));
      expect(recordRefundFailure(after, { reason: 'no', now: at(4000) })).toEqual(ok([]));
    });
    it('records the provider refusing it, once; nothing without a request', () => {
      const refusal = recordRefundFailure(given(started, failed, requested), {
        reason: 'reversed',
        now: at(3000),
      });
      expect(refusal).toEqual(
        ok([{ type: 'RefundFailed', data: { reference: 'chk_1', reason: 'reversed', failedAt: iso(3000) } }]),
      );
      expect(recordRefund(given(started, failed), { refundId: 'rf_1', now: at(3000) })).toEqual(ok([]));
    });
  });

  describe('fail', () => {
    const cmd = { reason: 'declined', now: at(1000) };
    it('fails a pending unpaid checkout, once', () => {
      expect(fail(given(started), cmd)).toEqual(ok([failed]));
      expect(fail(given(started, failed), cmd)).toEqual(ok([]));
      expect(given(started, failed)).toMatchObject({ status: 'failed', failureReason: 'declined' });
    });
    it('refuses a missing, paid, succeeded or expired checkout', () => {
      expect(fail(given(), cmd)).toEqual(refused('resource_missing'));
      expect(fail(given(started, confirmed), cmd)).toEqual(refused('checkout_paid'));
      expect(fail(given(started, confirmed, succeeded), cmd)).toEqual(refused('checkout_paid'));
      expect(fail(given(started), { ...cmd, now: at(TTL) })).toEqual(refused('checkout_expired'));
    });
  });

  describe('succeed', () => {
    it('succeeds a paid checkout with the package sms, once', () => {
      expect(succeed(given(started, confirmed), { now: at(2000) })).toEqual(ok([succeeded]));
      expect(succeed(given(started, confirmed, succeeded), { now: at(3000) })).toEqual(ok([]));
      expect(given(started, confirmed, succeeded)).toMatchObject({ status: 'succeeded', creditedSms: 1000 });
    });
    it('succeeds a paid checkout even after its TTL (the money was taken in time)', () =>
      expect(succeed(given(started, confirmed), { now: at(TTL * 3) })).toEqual(
        ok([{ type: 'CheckoutSucceeded', data: { sms: 1000, succeededAt: iso(TTL * 3) } }]),
      ));
    it('refuses a missing or unpaid checkout', () => {
      expect(succeed(given(), { now: at(0) })).toEqual(refused('resource_missing'));
      expect(succeed(given(started), { now: at(0) })).toEqual(refused('payment_not_confirmed'));
      expect(succeed(given(started, failed), { now: at(0) })).toEqual(refused('payment_not_confirmed'));
    });
  });

  describe('expire', () => {
    it('expires an unpaid checkout whose time is up, once', () => {
      expect(expire(given(started), { now: at(TTL) })).toEqual(ok([expired]));
      expect(expire(given(started, expired), { now: at(TTL + 5) })).toEqual(ok([]));
      expect(given(started, expired).status).toBe('expired');
    });
    it('refuses a missing, early, paid or failed checkout', () => {
      expect(expire(given(), { now: at(TTL) })).toEqual(refused('resource_missing'));
      expect(expire(given(started), { now: at(TTL - 1) })).toEqual(refused('checkout_not_expired'));
      expect(expire(given(started, confirmed), { now: at(TTL) })).toEqual(refused('checkout_paid'));
      expect(expire(given(started, failed), { now: at(TTL) })).toEqual(refused('checkout_failed'));
    });
  });

  describe('finishedBy: what outcome metrics count, once', () => {
    const recorded = (events: CheckoutEvent[], ...before: CheckoutEvent[]) =>
      ok({ state: given(...before, ...events), events });

    it('is the checkout when the recorded events finish it', () => {
      expect(finishedBy(recorded([succeeded], started, confirmed))).toMatchObject({
        status: 'succeeded',
        started: { environment: startCmd.environment },
      });
      expect(finishedBy(recorded([failed], started))).toMatchObject({ status: 'failed' });
      expect(finishedBy(recorded([expired], started))).toMatchObject({ status: 'expired' });
    });

    it('is null for a payment still to be credited, a no-op and a refusal', () => {
      expect(finishedBy(recorded([confirmed], started))).toBeNull();
      expect(finishedBy(recorded([], started, failed))).toBeNull();
      expect(finishedBy(refused('checkout_paid'))).toBeNull();
    });
  });
});
