import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import {
  WALLET_CARE_EVENT_TYPES,
  WALLET_CARE_STREAM_PREFIX,
  type WalletCareEvent,
} from '../domain/wallet-care.events';

export const WALLET_CARE = 'wallet-care';
export const WALLET_CARE_PROJECTION = 'wallet-care';

/** A wallet's alert and auto top-up as the API and the console read them. */
export interface WalletCareView {
  readonly walletId: string;
  readonly lowBalance: number | null;
  /** Set while the balance is at or below the alert (the console's banner), with what it was. */
  readonly alert: { readonly smsLeft: number; readonly threshold: number; readonly at: string } | null;
  readonly autoTopUp: {
    readonly enabled: boolean;
    readonly threshold: number;
    readonly packageId: string;
  } | null;
  readonly topUpInFlight: string | null;
  readonly failuresInARow: number;
  readonly lastFailure: { readonly reason: string; readonly at: string } | null;
}

const empty = (walletId: string): WalletCareView => ({
  walletId,
  lowBalance: null,
  alert: null,
  autoTopUp: null,
  topUpInFlight: null,
  failuresInARow: 0,
  lastFailure: null,
});

export const walletCareProjection: Projection = {
  name: WALLET_CARE_PROJECTION,
  kind: 'read-model',
  collections: [WALLET_CARE],
  filter: { streamPrefixes: [WALLET_CARE_STREAM_PREFIX], eventTypes: WALLET_CARE_EVENT_TYPES },
  async apply(recorded: RecordedEvent, view: ProjectionView) {
    const event = recorded as unknown as WalletCareEvent;
    const walletId = event.data.walletId;
    const doc = (await view.get<WalletCareView>(WALLET_CARE, walletId)) ?? empty(walletId);
    view.put(WALLET_CARE, walletId, next(doc, event));
  },
};

function next(doc: WalletCareView, event: WalletCareEvent): WalletCareView {
  switch (event.type) {
    case 'LowBalanceAlertSet':
      return { ...doc, lowBalance: event.data.threshold, alert: null };
    case 'LowBalanceAlerted':
      return {
        ...doc,
        alert: { smsLeft: event.data.smsLeft, threshold: event.data.threshold, at: event.data.at },
      };
    case 'LowBalanceAlertRearmed':
      return { ...doc, alert: null };
    case 'AutoTopUpSet':
      return {
        ...doc,
        autoTopUp: {
          enabled: event.data.enabled,
          threshold: event.data.threshold,
          packageId: event.data.packageId,
        },
        failuresInARow: event.data.enabled ? 0 : doc.failuresInARow,
      };
    case 'AutoTopUpTriggered':
      return { ...doc, topUpInFlight: event.data.topUpId };
    case 'AutoTopUpSucceeded':
      return { ...doc, topUpInFlight: null, failuresInARow: 0 };
    case 'AutoTopUpFailed':
      return {
        ...doc,
        topUpInFlight: null,
        failuresInARow: event.data.failuresInARow,
        lastFailure: { reason: event.data.reason, at: event.data.at },
        autoTopUp:
          event.data.disabled && doc.autoTopUp ? { ...doc.autoTopUp, enabled: false } : doc.autoTopUp,
      };
  }
}
