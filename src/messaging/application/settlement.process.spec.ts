import type { EventStore, RecordedEvent } from '../../shared/event-store/event-store.port';
import type { ProjectionView } from '../../shared/projections/projection';
import { ok } from '../../shared/result';
import type { WalletService } from '../../wallet/application/wallet.service';
import { CANCELED_REASON, settlementProcess } from './settlement.process';

const recorded = (type: string, data: Record<string, unknown>, revision = 2n): RecordedEvent => ({
  streamId: 'message-msg_1',
  revision,
  position: 10n,
  type,
  data,
  metadata: {},
  recordedAt: new Date('2026-11-27T10:00:00Z'),
});

const outcome = { errorCode: null, errorMessage: null, carrierStatus: 'DELIVRD', at: '2026-11-27T10:00:00Z' };

function setUp(firstEvent?: RecordedEvent) {
  const readStream = jest.fn(async () => (firstEvent ? [firstEvent] : []));
  const wallets = {
    capture: jest.fn(async () => ok({ events: [] })),
    release: jest.fn(async () => ok({ events: [] })),
  };
  const process = settlementProcess(
    wallets as unknown as WalletService,
    { readStream } as unknown as EventStore,
    { warn: jest.fn() },
  );
  const settle = async (event: RecordedEvent) => {
    const effects: (() => Promise<unknown>)[] = [];
    const view = { afterBatch: (effect: () => Promise<unknown>) => effects.push(effect) };
    await process.apply(event, view as unknown as ProjectionView);
    for (const effect of effects) await effect();
  };
  return { settle, wallets, readStream };
}

describe('settlement process', () => {
  it('captures a delivered message on the wallet its event names, reading no stream', async () => {
    const { settle, wallets, readStream } = setUp();
    await settle(recorded('MessageDelivered', { ...outcome, walletId: 'wal_1' }));
    expect(wallets.capture).toHaveBeenCalledWith('wal_1', 'msg_1');
    expect(readStream).not.toHaveBeenCalled();
  });

  it('releases a canceled message with the cancel reason', async () => {
    const { settle, wallets } = setUp();
    await settle(recorded('MessageCanceled', { at: outcome.at, walletId: 'wal_1' }));
    expect(wallets.release).toHaveBeenCalledWith('wal_1', 'msg_1', CANCELED_REASON);
  });

  it('settles an event recorded before events named their wallet on its stream’s first event', async () => {
    const queued = recorded('MessageQueued', { messageId: 'msg_1', walletId: 'wal_9' }, 0n);
    const { settle, wallets, readStream } = setUp(queued);
    await settle(recorded('MessageFailed', { ...outcome, errorCode: 'rejected' }));
    expect(readStream).toHaveBeenCalledWith('message-msg_1', { limit: 1 });
    expect(wallets.release).toHaveBeenCalledWith('wal_9', 'msg_1', 'message failed');
  });

  it('leaves a sandbox try-out, which has no wallet, alone', async () => {
    const { settle, wallets, readStream } = setUp();
    await settle(recorded('MessageDelivered', { ...outcome, walletId: '' }));
    expect(wallets.capture).not.toHaveBeenCalled();
    expect(readStream).not.toHaveBeenCalled();
  });
});
