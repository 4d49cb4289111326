import { Query } from '@nestjs/cqrs';

export interface AutoTopUpView {
  readonly object: 'auto_topup';
  readonly enabled: boolean;
  readonly threshold: number | null;
  readonly package_id: string | null;
  /** The saved card it charges (never its authorization code), or null. */
  readonly card: {
    readonly brand: string;
    readonly last4: string;
    readonly exp_month: string;
    readonly exp_year: string;
  } | null;
  readonly failures_in_a_row: number;
  readonly last_failure: { readonly reason: string; readonly at: string } | null;
}

/** GET /v1/wallet/auto_topup. */
export class AutoTopUpSettings extends Query<AutoTopUpView> {
  constructor(readonly walletId: string) {
    super();
  }
}
