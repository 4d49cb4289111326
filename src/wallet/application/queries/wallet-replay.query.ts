import { Query } from '@nestjs/cqrs';

/** What an auditor's replay of a wallet found, compared with the balance read model. */
export interface WalletReplayReport {
  readonly wallet: string;
  readonly events: number;
  readonly sms_left: number;
  readonly read_model_sms_left: number | null;
  readonly credits_in: number;
  readonly captured: number;
  readonly reserved: number;
  readonly open_reservations: number;
  /** Campaigns' credits held, not yet taken by their messages. */
  readonly held: number;
  readonly consistent: boolean;
}

/**
 * Folds the wallet's every event from revision zero, ignoring snapshots, and compares the result
 * with the read model (`wallet:replay`). Null for a wallet with no events.
 */
export class WalletReplay extends Query<WalletReplayReport | null> {
  constructor(
    readonly walletId: string,
    /** Hears the events folded so far, page by page, on a long history. */
    readonly onProgress?: (events: number) => void,
  ) {
    super();
  }
}
