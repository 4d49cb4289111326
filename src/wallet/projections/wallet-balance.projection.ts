import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import type { Environment, WalletEvent } from '../domain/wallet.events';
import { capturesIn, releasesIn, smsOf } from '../domain/settlements';
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

/** The balance as this projection changes it: its own document (see walletBalanceProjection). */
type Balance = { -readonly [K in keyof WalletBalanceView]: WalletBalanceView[K] };

const emptyBalance = (walletId: string): Balance => ({
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
});

/**
 * The wallet balances read model. A wallet's document is changed in place and put again, not
 * copied: behind a campaign a wallet sees 200,000 events (a reservation and a capture a message),
 * and copying its document for each was a twentieth of what the worker allocated. The documents
 * changed are the projection's own, held by the runner between commits and dropped when it
 * resumes from its checkpoint (as the campaigns read model's are).
 */
export const walletBalanceProjection: Projection = {
  name: 'wallet-balances',
  collections: [WALLETS],
  filter: { streamPrefixes: ['wallet-'], eventTypes: WALLET_EVENT_TYPES },
  async apply(recorded: RecordedEvent, view: ProjectionView) {
    const event = recorded as unknown as RecordedEvent & WalletEvent;
    const walletId = recorded.streamId.slice('wallet-'.length);
    const current = await view.get<Balance>(WALLETS, walletId);
    if (current && BigInt(current.revision) >= recorded.revision) return; // already applied
    const balance = current ?? emptyBalance(walletId);
    applyWalletEvent(balance, event);
    balance.smsLeft = balance.creditsIn - balance.captured - balance.reserved - (balance.held ?? 0);
    balance.revision = recorded.revision.toString();
    balance.updatedAt = recorded.recordedAt.toISOString();
    view.put(WALLETS, walletId, balance);
  },
};

function applyWalletEvent(w: Balance, event: WalletEvent): void {
  switch (event.type) {
    case 'WalletOpened':
      w.accountId = event.data.accountId;
      w.environment = event.data.environment;
      return;
    case 'CreditsAdded':
      w.creditsIn += event.data.sms;
      return;
    case 'CreditsReserved':
      w.reserved += event.data.sms;
      w.openReservations += 1;
      // Taken from a hold: the credits only move from the hold to the message.
      if (event.data.holdId !== undefined) w.held = (w.held ?? 0) - event.data.sms;
      return;
    case 'CreditsHeld':
      w.held = (w.held ?? 0) + event.data.sms;
      return;
    case 'HeldCreditsReleased':
      w.held = (w.held ?? 0) - event.data.sms;
      return;
    case 'ReservationCaptured':
    case 'ReservationReleased':
    case 'ReservationsSettled': {
      const captured = capturesIn(event);
      const released = releasesIn(event);
      const spent = smsOf(captured);
      w.captured += spent;
      w.reserved -= spent + smsOf(released);
      w.openReservations -= captured.length + released.length;
      return;
    }
  }
}
