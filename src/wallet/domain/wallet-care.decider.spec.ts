import { fold } from '../../shared/decider';
import type { Result } from '../../shared/result';
import {
  observeBalance,
  recordTopUpOutcome,
  setAutoTopUp,
  setLowBalanceAlert,
  walletCareDecider,
  type WalletCare,
} from './wallet-care.decider';
import type { WalletCareEvent } from './wallet-care.events';

const whose = { walletId: 'wal_1', accountId: 'acct_1', environment: 'LIVE' as const };
const now = new Date('2026-11-25T10:00:00.000Z');
const events = (r: Result<WalletCareEvent[], unknown>) => (r.ok ? r.value : []);
const given = (...decisions: ((c: WalletCare) => Result<WalletCareEvent[], unknown>)[]) =>
  decisions.reduce(
    (c, decide) => fold(walletCareDecider, events(decide(c)), c),
    walletCareDecider.initialState(),
  );
const alertAt = (threshold: number | null) => (c: WalletCare) =>
  setLowBalanceAlert(c, { ...whose, threshold, now });
const topUpAt =
  (threshold: number, enabled = true) =>
  (c: WalletCare) =>
    setAutoTopUp(c, { ...whose, enabled, threshold, packageId: 'pkg_starter', now });
const seen =
  (smsLeft: number, revision: number, at = now) =>
  (c: WalletCare) =>
    observeBalance(c, { smsLeft, walletRevision: BigInt(revision), topUpId: `chk_${revision}`, now: at });
const types = (r: Result<WalletCareEvent[], unknown>) => events(r).map((e) => e.type);

describe('low-balance alert', () => {
  it('alerts once when sms_left falls to the threshold, and not again while it stays low', () => {
    const c = given(alertAt(500), seen(600, 1));
    expect(events(seen(500, 2)(c))).toEqual([
      {
        type: 'LowBalanceAlerted',
        data: { ...whose, smsLeft: 500, threshold: 500, walletRevision: '2', at: now.toISOString() },
      },
    ]);
    expect(types(seen(400, 3)(given(alertAt(500), seen(600, 1), seen(500, 2))))).toEqual([]);
  });

  it('is armed again when sms_left rises above the threshold, and alerts on the next fall', () => {
    const rearmed = given(alertAt(500), seen(450, 1), seen(501, 2));
    expect(rearmed.alerted).toBe(false);
    expect(types(seen(499, 3)(rearmed))).toEqual(['LowBalanceAlerted']);
  });

  it('ignores an observation older than one recorded: a batch seen again decides nothing twice', () => {
    const c = given(alertAt(500), seen(450, 10));
    expect(types(seen(900, 8)(c))).toEqual([]);
    expect(types(seen(450, 10)(c))).toEqual([]);
  });

  it('a new threshold is checked afresh; null turns the alert off; a bad one is refused', () => {
    expect(types(seen(450, 10)(given(alertAt(500), seen(450, 10), alertAt(400))))).toEqual([]);
    expect(types(seen(450, 10)(given(alertAt(500), seen(450, 10), alertAt(600))))).toEqual([
      'LowBalanceAlerted',
    ]);
    expect(types(seen(1, 11)(given(alertAt(500), alertAt(null))))).toEqual([]);
    const refused = setLowBalanceAlert(given(), { ...whose, threshold: 0, now });
    expect(refused).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'invalid_threshold', param: 'low_balance' }),
    });
  });
});

describe('auto top-up', () => {
  it('starts one top-up when sms_left falls to the threshold, none while it is in flight', () => {
    const c = given(topUpAt(100));
    expect(events(seen(100, 1)(c))).toEqual([
      {
        type: 'AutoTopUpTriggered',
        data: {
          ...whose,
          topUpId: 'chk_1',
          packageId: 'pkg_starter',
          smsLeft: 100,
          threshold: 100,
          walletRevision: '1',
          at: now.toISOString(),
        },
      },
    ]);
    expect(types(seen(50, 2)(given(topUpAt(100), seen(100, 1))))).toEqual([]);
  });

  it('starts at most 3 a day', () => {
    const succeeded = (id: string) => (c: WalletCare) =>
      recordTopUpOutcome(c, { topUpId: id, outcome: { succeeded: true, sms: 10 }, now });
    const c = given(
      topUpAt(100),
      seen(90, 1),
      succeeded('chk_1'),
      seen(90, 2),
      succeeded('chk_2'),
      seen(90, 3),
      succeeded('chk_3'),
    );
    expect(types(seen(90, 4)(c))).toEqual([]);
    expect(types(seen(90, 4, new Date('2026-11-26T00:00:01.000Z'))(c))).toEqual(['AutoTopUpTriggered']);
  });

  it('a failure e-mails (AutoTopUpFailed); 3 in a row turn it off, a success resets the count', () => {
    const failedOnce = (id: string) => (c: WalletCare) =>
      recordTopUpOutcome(c, { topUpId: id, outcome: { succeeded: false, reason: 'Declined' }, now });
    const twice = given(topUpAt(100), seen(90, 1), failedOnce('chk_1'), seen(90, 2), failedOnce('chk_2'));
    expect(twice.failuresInARow).toBe(2);
    const third = given(
      topUpAt(100),
      seen(90, 1),
      failedOnce('chk_1'),
      seen(90, 2),
      failedOnce('chk_2'),
      seen(90, 3),
    );
    expect(events(failedOnce('chk_3')(third))).toEqual([
      {
        type: 'AutoTopUpFailed',
        data: {
          ...whose,
          topUpId: 'chk_3',
          packageId: 'pkg_starter',
          reason: 'Declined',
          failuresInARow: 3,
          disabled: true,
          at: now.toISOString(),
        },
      },
    ]);
    const off = given(
      topUpAt(100),
      seen(90, 1),
      failedOnce('chk_1'),
      seen(90, 2),
      failedOnce('chk_2'),
      seen(90, 3),
      failedOnce('chk_3'),
    );
    expect(off.autoTopUp?.enabled).toBe(false);
    expect(types(seen(80, 4)(off))).toEqual([]);
    expect(
      given(topUpAt(100), seen(90, 1), failedOnce('chk_1'), topUpAt(100, false), topUpAt(100)).failuresInARow,
    ).toBe(0);
  });

  it('records an outcome once, for the top-up in flight only', () => {
    const c = given(topUpAt(100), seen(90, 1));
    const ok = { topUpId: 'chk_1', outcome: { succeeded: true as const, sms: 10 }, now };
    expect(types(recordTopUpOutcome(c, ok))).toEqual(['AutoTopUpSucceeded']);
    expect(
      types(
        recordTopUpOutcome(
          given(topUpAt(100), seen(90, 1), (s) => recordTopUpOutcome(s, ok)),
          ok,
        ),
      ),
    ).toEqual([]);
    expect(types(recordTopUpOutcome(c, { ...ok, topUpId: 'chk_other' }))).toEqual([]);
  });
});
