import { Query } from '@nestjs/cqrs';
import type { ListPage } from '../../../shared/http/pagination';
import type { Environment } from '../../ports/carrier.port';
import type { ApiMessage } from '../../projections/messages.projection';

/**
 * A page of the wallet's messages, newest first, after the message `startingAfter`; only those
 * of the batch `batch`, or of the campaign `campaign`, when given.
 */
export class MessagesPage extends Query<ListPage<ApiMessage>> {
  constructor(
    readonly scope: { readonly walletId: string; readonly environment: Environment },
    readonly limit: number,
    readonly startingAfter?: string,
    readonly batch?: string,
    readonly campaign?: string,
  ) {
    super();
  }
}
