import { fold } from '../../shared/decider';
import { capturesIn, foldSettlements, releasesIn, smsOf } from './settlements';
import { smsLeft, walletDecider } from './wallet.decider';
import type { WalletEvent } from './wallet.events';

const at = '2026-11-27T00:00:00.000Z';
const opened: WalletEvent[] = [
  {
    type: 'WalletOpened',
    data: { walletId: 'wal_1', accountId: 'acc_1', environment: 'TEST', openedAt: at },
  },
  { type: 'CreditsAdded', data: { sourceId: 's', source: 'test_grant', sms: 10, reason: 'r', addedAt: at } },
];
const reserved = (messageId: string, sms = 1): WalletEvent => ({
  type: 'CreditsReserved',
  data: { messageId, sms, reservedAt: at },
});
const captured = (messageId: string, sms = 1): WalletEvent => ({
  type: 'ReservationCaptured',
  data: { messageId, sms },
});
const released = (messageId: string, sms = 1): WalletEvent => ({
  type: 'ReservationReleased',
  data: { messageId, sms, reason: 'message failed' },
});

describe('foldSettlements', () => {
  it('makes a run of settlements one ReservationsSettled, captures and releases in their lists', () => {
    expect(foldSettlements([captured('m1'), released('m2', 2), captured('m3')])).toEqual([
      {
        type: 'ReservationsSettled',
        data: {
          captured: [
            { messageId: 'm1', sms: 1 },
            { messageId: 'm3', sms: 1 },
          ],
          released: [{ messageId: 'm2', sms: 2, reason: 'message failed' }],
        },
      },
    ]);
  });

  it('leaves a lone settlement, and everything else, as it was', () => {
    const events = [reserved('m1'), captured('m2'), reserved('m3')];
    expect(foldSettlements(events)).toBe(events);
  });

  it('never folds across another event: a release may have freed the credits a reservation took', () => {
    const folded = foldSettlements([
      captured('m1'),
      released('m2'),
      reserved('m4'),
      released('m3'),
      captured('m5'),
    ]);
    expect(folded.map((e) => e.type)).toEqual([
      'ReservationsSettled',
      'CreditsReserved',
      'ReservationsSettled',
    ]);
  });

  it('leaves the wallet a replay folds exactly as the events one by one did', () => {
    const decided = [
      ...opened,
      ...['m1', 'm2', 'm3', 'm4', 'm5'].map((m) => reserved(m, 2)),
      captured('m1', 2),
      released('m2', 2),
      captured('m3', 2),
      reserved('m6', 3),
      released('m4', 2),
      released('m5', 2),
    ];
    const one = fold(walletDecider, decided);
    const folded = fold(walletDecider, foldSettlements(decided));
    expect(foldSettlements(decided)).toHaveLength(decided.length - 3);
    expect(smsLeft(folded)).toBe(smsLeft(one));
    expect(folded.balance).toBe(one.balance);
    expect(folded.captured).toBe(one.captured);
    expect([...folded.reserved]).toEqual([...one.reserved]);
    expect(smsLeft(folded)).toBe(10 - 4 - 3);
  });
});

describe('capturesIn and releasesIn', () => {
  it('read either shape, and nothing from other events', () => {
    const [many] = foldSettlements([captured('m1'), released('m2')]);
    expect(capturesIn(many)).toEqual([{ messageId: 'm1', sms: 1 }]);
    expect(releasesIn(many)).toEqual([{ messageId: 'm2', sms: 1, reason: 'message failed' }]);
    expect(capturesIn(captured('m3'))).toEqual([{ messageId: 'm3', sms: 1 }]);
    expect(releasesIn(captured('m3'))).toEqual([]);
    expect(releasesIn(released('m4'))).toHaveLength(1);
    expect(capturesIn(reserved('m5'))).toEqual([]);
    expect(smsOf(releasesIn(foldSettlements([released('m6', 2), released('m7', 3)])[0]))).toBe(5);
    expect(smsOf([])).toBe(0);
  });
});
