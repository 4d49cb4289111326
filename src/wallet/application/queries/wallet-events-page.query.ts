import { Query } from '@nestjs/cqrs';
import type { ListPage } from '../../../shared/http/pagination';

/** One event of a wallet's own stream, as auditors read it (API.md: GET /v1/wallet/events). */
export interface WalletEventView {
  readonly object: 'wallet_event';
  readonly revision: number;
  readonly type: string;
  readonly data: unknown;
  readonly recorded_at: string;
}

/** The wallet's events oldest first, after revision `after` (from the start when null). */
export class WalletEventsPage extends Query<ListPage<WalletEventView>> {
  constructor(
    readonly walletId: string,
    readonly after: bigint | null,
    readonly limit: number,
  ) {
    super();
  }
}
