import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import { RecentlyUsed } from '../../shared/recently-used';
import * as care from '../domain/wallet-care.decider';
import {
  WALLET_CARE_EVENT_TYPES,
  WALLET_CARE_STREAM_PREFIX,
  type WalletCareEvent,
} from '../domain/wallet-care.events';
import { releasesIn, smsOf } from '../domain/settlements';
import type { WalletEvent } from '../domain/wallet.events';
import type { WalletCareService } from './wallet-care.service';

export const BALANCE_WATCH_PROCESS = 'balance-watch';
const WATCHED = 'balance-watch-wallets';

/**
 * One watched wallet, as of this process's checkpoint: its sms_left at `revision` and a copy of
 * its care (alert, auto top-up) to tell, without a read, whether a balance changes anything.
 */
interface WatchedWallet {
  readonly smsLeft: number;
  readonly revision: string;
  /** The care state, folded from the care stream (plus what this process just decided). */
  readonly care: Omit<care.WalletCare, 'observedRevision'> & { readonly observedRevision: string };
}

/** Of a wallet's events, those that move sms_left (a capture turns reserved into spent: no change). */
const BALANCE_EVENTS: readonly WalletEvent['type'][] = [
  'CreditsAdded',
  'CreditsReserved',
  'ReservationReleased',
  'ReservationsSettled',
  'CreditsHeld',
  'HeldCreditsReleased',
];

function smsLeftChange(event: WalletEvent): number {
  switch (event.type) {
    case 'CreditsAdded':
    case 'ReservationReleased':
    case 'HeldCreditsReleased':
      return event.data.sms;
    case 'ReservationsSettled':
      return smsOf(releasesIn(event));
    case 'CreditsHeld':
      return -event.data.sms;
    case 'CreditsReserved':
      // From a campaign's hold, the credits left sms_left when they were held.
      return event.data.holdId !== undefined ? 0 : -event.data.sms;
    default:
      return 0;
  }
}

const toState = (c: WatchedWallet['care']): care.WalletCare => ({
  ...c,
  observedRevision: BigInt(c.observedRevision),
});
const toDoc = (c: care.WalletCare): WatchedWallet['care'] => ({
  ...c,
  observedRevision: c.observedRevision.toString(),
});

/**
 * The balance watch: follows sms_left of the wallets that have an alert or auto top-up, and asks
 * their care stream to decide when the balance crosses a threshold. Wallets without care cost a
 * look-up in memory per event and nothing more; the wallet's own decider and stream are untouched.
 *
 * Each decision goes to the care stream at its expected revision and names the wallet revision it
 * saw, so a batch applied again (after a crash, or by a second process on the same store) decides
 * nothing twice: one alert per crossing, one top-up per trigger.
 */
export function balanceWatchProcess(
  careService: WalletCareService,
  loadWallet: (walletId: string) => Promise<{ smsLeft: number; revision: bigint } | null>,
): Projection {
  /** Whether a wallet is watched, as last read or written here. */
  const watched = new RecentlyUsed<string, boolean>(100_000);

  async function doc(walletId: string, view: ProjectionView): Promise<WatchedWallet | null> {
    const known = watched.get(walletId);
    if (known === false) return null;
    const found = await view.get<WatchedWallet>(WATCHED, walletId);
    watched.set(walletId, found !== null);
    return found;
  }

  /** Decides on the copy; when something would be recorded, records it on the stream (which decides again). */
  function observe(walletId: string, w: WatchedWallet, view: ProjectionView): WatchedWallet {
    const state = toState(w.care);
    const revision = BigInt(w.revision);
    const decided = care.observeBalance(state, {
      smsLeft: w.smsLeft,
      walletRevision: revision,
      topUpId: 'pending',
      now: new Date(),
    });
    if (!decided.ok || decided.value.length === 0) return w;
    view.afterBatch(() => careService.observe(walletId, w.smsLeft, revision));
    // Later events of the batch see the decision already taken (the stream holds the real one).
    let next = state;
    for (const event of decided.value) next = care.walletCareDecider.evolve(next, event);
    return { ...w, care: toDoc(next) };
  }

  async function applyCare(event: WalletCareEvent, view: ProjectionView): Promise<void> {
    const walletId = event.data.walletId;
    let w = await doc(walletId, view);
    if (!w) {
      if (event.type !== 'LowBalanceAlertSet' && event.type !== 'AutoTopUpSet') return;
      const wallet = await loadWallet(walletId);
      if (!wallet) return;
      w = { smsLeft: wallet.smsLeft, revision: wallet.revision.toString(), care: toDoc(care.initialState()) };
    }
    const state = toState(w.care);
    // An observation this process decided already is in the copy: its recorded event adds nothing.
    const decidedHere =
      (event.type === 'LowBalanceAlerted' ||
        event.type === 'LowBalanceAlertRearmed' ||
        event.type === 'AutoTopUpTriggered') &&
      BigInt(event.data.walletRevision) <= state.observedRevision &&
      (event.type !== 'AutoTopUpTriggered' || state.inFlight !== null);
    let next = decidedHere
      ? event.type === 'AutoTopUpTriggered'
        ? { ...state, inFlight: event.data.topUpId }
        : state
      : care.walletCareDecider.evolve(state, event);
    if (event.type === 'LowBalanceAlertSet' || event.type === 'AutoTopUpSet') {
      w = observe(walletId, { ...w, care: toDoc(next) }, view);
      next = toState(w.care);
    }
    const watching = next.lowBalance !== null || next.autoTopUp?.enabled === true || next.inFlight !== null;
    watched.set(walletId, watching);
    if (watching) view.put(WATCHED, walletId, { ...w, care: toDoc(next) } satisfies WatchedWallet);
    else view.delete(WATCHED, walletId);
  }

  return {
    name: BALANCE_WATCH_PROCESS,
    kind: 'process-manager',
    collections: [WATCHED],
    filter: {
      streamPrefixes: ['wallet-'],
      eventTypes: [...BALANCE_EVENTS, ...WALLET_CARE_EVENT_TYPES],
    },
    onResume() {
      watched.clear();
    },
    async apply(recorded: RecordedEvent, view: ProjectionView) {
      if (recorded.streamId.startsWith(WALLET_CARE_STREAM_PREFIX)) {
        return applyCare(recorded as unknown as WalletCareEvent, view);
      }
      const walletId = recorded.streamId.slice('wallet-'.length);
      const w = await doc(walletId, view);
      if (!w || recorded.revision <= BigInt(w.revision)) return; // not watched, or folded in already
      const moved = {
        ...w,
        smsLeft: w.smsLeft + smsLeftChange(recorded as unknown as WalletEvent),
        revision: recorded.revision.toString(),
      };
      view.put(WATCHED, walletId, observe(walletId, moved, view) satisfies WatchedWallet);
    },
  };
}
