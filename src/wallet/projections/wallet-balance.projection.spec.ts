import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import { BatchView } from '../../shared/projections/batch-view';
import type { ReadStore } from '../../shared/read-store/read-store.port';
import { fold } from '../../shared/decider';
import { foldSettlements } from '../domain/settlements';
import { smsLeft, walletDecider } from '../domain/wallet.decider';
import type { WalletEvent } from '../domain/wallet.events';
import { WALLETS, walletBalanceProjection, type WalletBalanceView } from './wallet-balance.projection';

const at = '2026-11-27T08:00:00.000Z';
const emptyStore = { get: async () => null } as unknown as ReadStore;

async function balanceAfter(events: readonly WalletEvent[]): Promise<WalletBalanceView> {
  const view = new BatchView(emptyStore);
  let revision = 0n;
  for (const event of events) {
    const recorded: RecordedEvent = {
      streamId: 'wallet-wal_1',
      revision,
      position: revision + 1n,
      type: event.type,
      data: event.data,
      metadata: {},
      recordedAt: new Date(at),
    };
    revision++;
    await walletBalanceProjection.apply(recorded, view);
  }
  return (await view.get<WalletBalanceView>(WALLETS, 'wal_1'))!;
}

describe('wallet balances read model', () => {
  const history: WalletEvent[] = [
    {
      type: 'WalletOpened',
      data: { walletId: 'wal_1', accountId: 'acc_1', environment: 'TEST', openedAt: at },
    },
    {
      type: 'CreditsAdded',
      data: { sourceId: 's', source: 'test_grant', sms: 20, reason: 'r', addedAt: at },
    },
    ...['m1', 'm2', 'm3', 'm4'].map((messageId): WalletEvent => ({
      type: 'CreditsReserved',
      data: { messageId, sms: 2, reservedAt: at },
    })),
    { type: 'ReservationCaptured', data: { messageId: 'm1', sms: 2 } },
    { type: 'ReservationReleased', data: { messageId: 'm2', sms: 2, reason: 'message failed' } },
    { type: 'ReservationCaptured', data: { messageId: 'm3', sms: 2 } },
  ];

  it('reads settlements one by one or many in a ReservationsSettled to the same balance as the wallet', async () => {
    const folded = foldSettlements(history);
    expect(folded.at(-1)?.type).toBe('ReservationsSettled');
    const oneByOne = await balanceAfter(history);
    const many = await balanceAfter(folded);
    const expected = { creditsIn: 20, captured: 4, reserved: 2, openReservations: 1, smsLeft: 14 };
    expect(oneByOne).toMatchObject(expected);
    expect(many).toMatchObject(expected);
    expect(smsLeft(fold(walletDecider, folded))).toBe(14);
  });
});
