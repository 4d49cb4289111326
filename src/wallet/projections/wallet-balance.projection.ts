import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import type { Environment, WalletEvent } from '../domain/wallet.events';
import { WALLET_EVENT_TYPES } from '../domain/wallet.events';

export const WALLETS = 'wallets';

/** The wallet as the API reads it: balances kept current by the wallet's events. */
export interface WalletBalanceView {
  readonly walletId: string;
  readonly accountId: string;
  readonly environment: Environment;
  /** Every credit ever added. */
  readonly creditsIn: number;
  readonly captured: number;
  readonly reserved: number;
  readonly openReservations: number;
  /** Campaigns' credits held and not yet taken by their messages (absent on older documents). */
  readonly held?: number;
  /** creditsIn - captured - reserved - held: what can still be sent. */
  readonly smsLeft: number;
  readonly revision: string;
  readonly updatedAt: string;
}

export const walletBalanceProjection: Projection = {
  name: 'wallet-balances',
  collections: [WALLETS],
  filter: { streamPrefixes: ['wallet-'], eventTypes: WALLET_EVENT_TYPES },
  async apply(recorded: RecordedEvent, view: ProjectionView) {
    const event = recorded as unknown as RecordedEvent & WalletEvent;
    const walletId = recorded.streamId.slice('wallet-'.length);
    const current = await view.get<WalletBalanceView>(WALLETS, walletId);
    if (current && BigInt(current.revision) >= recorded.revision) return; // already applied
    const base: WalletBalanceView = current ?? {
      walletId,
      accountId: '',
      environment: 'TEST',
      creditsIn: 0,
      captured: 0,
      reserved: 0,
      openReservations: 0,
      smsLeft: 0,
      revision: '-1',
      updatedAt: '',
    };
    const next = applyWalletEvent(base, event);
    view.put(WALLETS, walletId, {
      ...next,
      smsLeft: next.creditsIn - next.captured - next.reserved - (next.held ?? 0),
      revision: recorded.revision.toString(),
      updatedAt: recorded.recordedAt.toISOString(),
    });
  },
};

function applyWalletEvent(w: WalletBalanceView, event: WalletEvent): WalletBalanceView {
  switch (event.type) {
    case 'WalletOpened':
      return { ...w, accountId: event.data.accountId, environment: event.data.environment };
    case 'CreditsAdded':
      return { ...w, creditsIn: w.creditsIn + event.data.sms };
    case 'CreditsReserved':
      return {
        ...w,
        reserved: w.reserved + event.data.sms,
        openReservations: w.openReservations + 1,
        // Taken from a hold: the credits only move from the hold to the message.
        ...(event.data.holdId !== undefined ? { held: (w.held ?? 0) - event.data.sms } : {}),
      };
    case 'CreditsHeld':
      return { ...w, held: (w.held ?? 0) + event.data.sms };
    case 'HeldCreditsReleased':
      return { ...w, held: (w.held ?? 0) - event.data.sms };
    case 'ReservationCaptured':
      return {
        ...w,
        reserved: w.reserved - event.data.sms,
        openReservations: w.openReservations - 1,
        captured: w.captured + event.data.sms,
      };
    case 'ReservationReleased':
      return { ...w, reserved: w.reserved - event.data.sms, openReservations: w.openReservations - 1 };
  }
}
