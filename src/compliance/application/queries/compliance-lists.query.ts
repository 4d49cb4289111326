import { Query } from '@nestjs/cqrs';
import type { ListPage } from '../../../shared/http/pagination';
import type { SenderIdStatus } from '../../domain/sender-id.decider';
import type {
  ApiInboundMessage,
  ApiNumber,
  ApiOptOut,
  ApiSenderId,
} from '../../projections/compliance.projection';

/** The account's sender IDs, oldest request first, each with its status and reason. */
export class SenderIdsList extends Query<ListPage<ApiSenderId>> {
  constructor(readonly accountId: string) {
    super();
  }
}

export type OperatorSenderId = ApiSenderId & { account_id: string; email: string | null };

/** One page of the operator's list; `next_after` continues it (null on the last page). */
export interface SenderIdRequestsPage {
  readonly sender_ids: OperatorSenderId[];
  readonly has_more: boolean;
  readonly next_after: string | null;
}

/**
 * Every account's sender IDs for the operator (`sender-ids:list [--status pending]`), by status
 * (pending, approved, rejected), oldest request first, `limit` at a time after the cursor a
 * previous page answered as `next_after`.
 */
export class SenderIdRequests extends Query<SenderIdRequestsPage> {
  constructor(
    readonly status: SenderIdStatus | undefined,
    readonly limit: number,
    readonly after?: string,
  ) {
    super();
  }
}

/** The numbers assigned to accounts (`numbers:list`). */
export class AssignedNumbers extends Query<ApiNumber[]> {}

/** A page of the wallet's inbound messages, newest first. */
export class InboundMessagesPage extends Query<ListPage<ApiInboundMessage>> {
  constructor(
    readonly walletId: string,
    readonly limit: number,
    readonly startingAfter?: string,
  ) {
    super();
  }
}

/** Inbound messages to numbers assigned to nobody, kept for the operator, newest first. */
export class UnassignedInboundMessages extends Query<ApiInboundMessage[]> {
  constructor(readonly limit: number) {
    super();
  }
}

/** A page of the wallet's opt-out list, newest first. */
export class OptOutsPage extends Query<ListPage<ApiOptOut>> {
  constructor(
    readonly walletId: string,
    readonly limit: number,
    readonly startingAfter?: string,
  ) {
    super();
  }
}
