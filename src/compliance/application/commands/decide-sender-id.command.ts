import { Command } from '@nestjs/cqrs';
import type { ApiSenderId } from '../../projections/compliance.projection';

export type SenderIdVerdict =
  { readonly verdict: 'approve' } | { readonly verdict: 'reject'; readonly reason: string };

/** The operator's decision on an account's sender ID (`sender-ids:approve`, `sender-ids:reject`). */
export class DecideSenderId extends Command<ApiSenderId & { account_id: string; email: string }> {
  constructor(
    readonly email: string,
    readonly senderId: string,
    readonly decision: SenderIdVerdict,
  ) {
    super();
  }
}
