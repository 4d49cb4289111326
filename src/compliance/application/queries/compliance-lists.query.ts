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

/** Every account's sender IDs for the operator (`sender-ids:list [--status pending]`). */
export class SenderIdRequests extends Query<(ApiSenderId & { account_id: string; email: string | null })[]> {
  constructor(readonly status?: SenderIdStatus) {
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
