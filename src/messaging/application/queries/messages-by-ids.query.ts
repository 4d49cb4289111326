import { Query } from '@nestjs/cqrs';
import type { Environment } from '../../ports/carrier.port';
import type { ApiMessage } from '../../projections/messages.projection';

/**
 * Messages by id, in the order asked (a campaign's report reads its messages a chunk at a time):
 * each as a read shows it, or null for one that does not exist or is another wallet's.
 */
export class MessagesByIds extends Query<(ApiMessage | null)[]> {
  constructor(
    readonly scope: { readonly walletId: string; readonly environment: Environment },
    readonly ids: readonly string[],
  ) {
    super();
  }
}
