import { Query } from '@nestjs/cqrs';

export interface WalletAlertsView {
  readonly object: 'wallet_alerts';
  readonly low_balance: number | null;
  /** While sms_left is at or below the alert: what it was when it fell (the console's banner). */
  readonly alerted: { readonly sms_left: number; readonly threshold: number; readonly at: string } | null;
}

/** GET /v1/wallet/alerts, and the console's low-balance banner. */
export class WalletAlerts extends Query<WalletAlertsView> {
  constructor(readonly walletId: string) {
    super();
  }
}
