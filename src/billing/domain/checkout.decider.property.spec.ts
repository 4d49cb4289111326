import fc from 'fast-check';
import { fold } from '../../shared/decider';
import {
  checkoutDecider,
  confirmPayment,
  expire,
  fail,
  start,
  startPayment,
  statusAt,
  succeed,
  type Checkout,
  type StartCheckout,
} from './checkout.decider';
import type { CheckoutEvent } from './checkout.events';

/**
 * Whatever commands arrive, in whatever order, repeated, racing or late (provider retries,
 * webhooks racing the redirect, page reloads, the expiry sweep), a checkout confirms its payment
 * at most once, succeeds (credits its wallet) at most once and for exactly its own sms, only after
 * a payment of exactly its amount and currency, credits or refunds a payment but never both, and
 * never leaves a terminal status, except that an expired checkout paid late succeeds.
 */
const T0 = new Date('2026-01-01T00:00:00.000Z').getTime();
const TTL = 30 * 60 * 1000;
const at = (ms: number) => new Date(T0 + ms);

const startCmd = (now: Date, overrides: Partial<StartCheckout> = {}): StartCheckout => ({
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
  now,
  ...overrides,
});

type Command = (state: Checkout, now: Date) => ReturnType<typeof succeed>;

const command: fc.Arbitrary<{ name: string; run: Command }> = fc.oneof(
  fc.constant({ name: 'start', run: (s: Checkout, now: Date) => start(s, startCmd(now)) }),
  fc.constant({
    name: 'start-other',
    run: (s: Checkout, now: Date) =>
      start(s, startCmd(now, { checkoutId: 'chk_2', reference: 'chk_2', walletId: 'wal_2' })),
  }),
  fc.constant({
    name: 'startPayment',
    run: (s: Checkout, now: Date) => startPayment(s, { redirectUrl: 'https://pay.example/x', now }),
  }),
  fc
    .record({
      reference: fc.constantFrom('chk_1', 'chk_1', 'chk_2'),
      amount: fc.constantFrom(5000, 5000, 4999, 50000, -5000, 0, Number.MAX_SAFE_INTEGER + 2, Number.NaN),
      currency: fc.constantFrom('GHS', 'ghs', 'NGN', ''),
      provider: fc.constantFrom('test' as const, 'test' as const, 'paystack' as const),
      payingNow: fc.boolean(),
    })
    .map((p) => ({
      name: `confirm(${JSON.stringify(p)})`,
      run: (s: Checkout, now: Date) => confirmPayment(s, { ...p, now }),
    })),
  fc.constant({ name: 'fail', run: (s: Checkout, now: Date) => fail(s, { reason: 'declined', now }) }),
  fc.constant({ name: 'succeed', run: (s: Checkout, now: Date) => succeed(s, { now }) }),
  fc.constant({ name: 'expire', run: (s: Checkout, now: Date) => expire(s, { now }) }),
);

/** Times mostly before expiry, some after it (up to 1 h). */
const step = fc.record({ command, atMs: fc.integer({ min: 0, max: 60 * 60 * 1000 }) });
const steps = fc.array(step, { minLength: 1, maxLength: 40 });

function run(sequence: Array<{ command: { run: Command }; atMs: number }>, withStart: boolean) {
  const events: CheckoutEvent[] = [];
  let state = checkoutDecider.initialState();
  const statuses: string[] = [];
  const ordered = [...sequence].sort((x, y) => x.atMs - y.atMs); // time only moves forward
  if (withStart) {
    const first = start(state, startCmd(at(0)));
    if (!first.ok) throw new Error('start refused');
    events.push(...first.value);
    state = fold(checkoutDecider, first.value, state);
  }
  for (const { command, atMs } of ordered) {
    const decision = command.run(state, at(atMs));
    if (decision.ok) {
      events.push(...decision.value);
      state = fold(checkoutDecider, decision.value, state);
    }
    statuses.push(state.status);
  }
  return { events, state, statuses };
}

const count = (events: CheckoutEvent[], type: CheckoutEvent['type']) =>
  events.filter((e) => e.type === type).length;
const PARAMS = { numRuns: 400 };

describe('checkout decider properties', () => {
  it('confirms a payment and succeeds (credits) at most once, whatever the command sequence', () => {
    fc.assert(
      fc.property(steps, fc.boolean(), (sequence, withStart) => {
        const { events } = run(sequence, withStart);
        expect(count(events, 'CheckoutStarted')).toBeLessThanOrEqual(1);
        expect(count(events, 'PaymentConfirmed')).toBeLessThanOrEqual(1);
        expect(count(events, 'CheckoutSucceeded')).toBeLessThanOrEqual(1);
        expect(count(events, 'CheckoutFailed') + count(events, 'CheckoutSucceeded')).toBeLessThanOrEqual(1);
        expect(count(events, 'CheckoutFailed') + count(events, 'CheckoutExpired')).toBeLessThanOrEqual(1);
        // A payment is credited or given back, never both, and given back at most once.
        expect(count(events, 'PaymentConfirmed') + count(events, 'RefundRequested')).toBeLessThanOrEqual(1);
      }),
      PARAMS,
    );
  });

  it('succeeds only after a payment of exactly its amount and currency, crediting exactly its own sms to its own wallet', () => {
    fc.assert(
      fc.property(steps, (sequence) => {
        const { events, state } = run(sequence, true);
        const confirmed = events.findIndex((e) => e.type === 'PaymentConfirmed');
        const succeeded = events.findIndex((e) => e.type === 'CheckoutSucceeded');
        if (succeeded >= 0) {
          expect(confirmed).toBeGreaterThanOrEqual(0);
          expect(confirmed).toBeLessThan(succeeded);
          expect(state.creditedSms).toBe(1000);
          expect(state.started!.walletId).toBe('wal_1'); // a second start never re-targets the checkout
        } else {
          expect(state.creditedSms).toBe(0);
        }
        if (confirmed >= 0) {
          const payment = events[confirmed] as Extract<CheckoutEvent, { type: 'PaymentConfirmed' }>;
          expect(payment.data).toMatchObject({
            reference: 'chk_1',
            amount: 5000,
            currency: 'GHS',
            provider: 'test',
          });
          // A confirmed payment is never failed or expired afterwards: it goes on to succeed.
          expect(
            events.slice(confirmed).some((e) => e.type === 'CheckoutFailed' || e.type === 'CheckoutExpired'),
          ).toBe(false);
        }
      }),
      PARAMS,
    );
  });

  it('never leaves a terminal status, and the status a reader sees is consistent with the events', () => {
    fc.assert(
      fc.property(steps, (sequence) => {
        const { statuses, state, events } = run(sequence, true);
        const firstTerminal = statuses.findIndex((s) => s !== 'pending');
        if (firstTerminal >= 0) {
          const after = [...new Set(statuses.slice(firstTerminal))];
          // The one way on from a terminal status: expired, then paid late (exactly), succeeded.
          expect([['failed'], ['expired'], ['succeeded'], ['expired', 'succeeded']]).toContainEqual(after);
        }
        const seen = statusAt(state, at(2 * 60 * 60 * 1000));
        if (events.some((e) => e.type === 'CheckoutSucceeded')) expect(seen).toBe('succeeded');
        else if (state.payment)
          expect(['pending', 'expired']).toContain(seen); // paid: credits are on their way
        else expect(['failed', 'expired']).toContain(seen);
      }),
      PARAMS,
    );
  });

  it('replaying the recorded events gives the same state (fold is deterministic)', () => {
    fc.assert(
      fc.property(steps, (sequence) => {
        const { events, state } = run(sequence, true);
        expect(fold(checkoutDecider, events)).toEqual(state);
      }),
      { numRuns: 100 },
    );
  });
});
