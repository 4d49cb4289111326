import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ListPage, page } from '../../../shared/http/pagination';
import { invalid } from '../../../shared/domain-error';
import { SENDER_ID_STATUSES, SenderIdStatus } from '../../domain/sender-id.decider';
import {
  ApiInboundMessage,
  ApiNumber,
  ApiOptOut,
  ApiSenderId,
  NUMBERS,
  NUMBERS_PARTITION,
  NumberDoc,
  SENDER_IDS,
  SENDER_IDS_BY_STATUS,
  SenderIdDoc,
  senderIdByStatusSort,
  senderIdKey,
  toApiInbound,
  toApiNumber,
  toApiOptOut,
  toApiSenderId,
  UNASSIGNED_PARTITION,
} from '../../projections/compliance.projection';
import { ComplianceReader } from '../compliance-reader';
import {
  AssignedNumbers,
  InboundMessagesPage,
  OptOutsPage,
  SenderIdRequests,
  SenderIdRequestsPage,
  SenderIdsList,
  UnassignedInboundMessages,
} from './compliance-lists.query';

/** An account has a handful of sender IDs; an operator's list is bounded so a CLI line stays readable. */
const MAX_LISTED = 1000;

@QueryHandler(SenderIdsList)
export class SenderIdsListHandler implements IQueryHandler<SenderIdsList, ListPage<ApiSenderId>> {
  constructor(private readonly reader: ComplianceReader) {}

  async execute({ accountId }: SenderIdsList): Promise<ListPage<ApiSenderId>> {
    await this.reader.caughtUp();
    const docs = await this.reader.reads.list<SenderIdDoc>(SENDER_IDS, {
      partition: accountId,
      order: 'asc',
      limit: MAX_LISTED + 1,
    });
    return page(docs.map(toApiSenderId), MAX_LISTED);
  }
}

@QueryHandler(SenderIdRequests)
export class SenderIdRequestsHandler implements IQueryHandler<SenderIdRequests, SenderIdRequestsPage> {
  constructor(private readonly reader: ComplianceReader) {}

  async execute({ status, limit, after }: SenderIdRequests): Promise<SenderIdRequestsPage> {
    await this.reader.caughtUp();
    const statuses: readonly SenderIdStatus[] = status ? [status] : SENDER_ID_STATUSES;
    let from = 0;
    let afterSort: string | undefined;
    if (after !== undefined) {
      const cursor = parseCursor(after);
      const doc = cursor && (await this.reader.reads.get<SenderIdDoc>(SENDER_IDS_BY_STATUS, cursor.key));
      from = cursor ? statuses.indexOf(cursor.status) : -1;
      if (!doc || from < 0)
        throw invalid('invalid_cursor', `No sender ID request to list after: ${after}`, 'after');
      // Status-independent, so a cursor whose request was decided meanwhile still places the page.
      afterSort = senderIdByStatusSort(doc);
    }
    const listed: { status: SenderIdStatus; doc: SenderIdDoc }[] = [];
    for (const partition of statuses.slice(from)) {
      const docs = await this.reader.reads.list<SenderIdDoc>(SENDER_IDS_BY_STATUS, {
        partition,
        order: 'asc',
        limit: limit + 1 - listed.length,
        afterSort,
      });
      listed.push(...docs.map((doc) => ({ status: partition, doc })));
      afterSort = undefined;
      if (listed.length > limit) break;
    }
    const shown = listed.slice(0, limit);
    const last = shown[shown.length - 1];
    const hasMore = listed.length > limit;
    return {
      sender_ids: await Promise.all(
        shown.map(async ({ doc }) => ({
          ...toApiSenderId(doc),
          account_id: doc.accountId,
          email: await this.reader.emailOf(doc.accountId),
        })),
      ),
      has_more: hasMore,
      next_after:
        hasMore && last ? `${last.status}:${senderIdKey(last.doc.accountId, last.doc.senderId)}` : null,
    };
  }
}

/** `<status>:<account id>|<sender ID>`, as `next_after` writes it. */
function parseCursor(after: string): { status: SenderIdStatus; key: string } | null {
  const colon = after.indexOf(':');
  const status = after.slice(0, colon) as SenderIdStatus;
  if (colon < 0 || !SENDER_ID_STATUSES.includes(status)) return null;
  return { status, key: after.slice(colon + 1) };
}

@QueryHandler(AssignedNumbers)
export class AssignedNumbersHandler implements IQueryHandler<AssignedNumbers, ApiNumber[]> {
  constructor(private readonly reader: ComplianceReader) {}

  async execute(): Promise<ApiNumber[]> {
    await this.reader.caughtUp();
    const docs = await this.reader.reads.list<NumberDoc>(NUMBERS, {
      partition: NUMBERS_PARTITION,
      order: 'asc',
      limit: MAX_LISTED,
    });
    return Promise.all(docs.map(async (doc) => toApiNumber(doc, await this.reader.emailOf(doc.accountId))));
  }
}

@QueryHandler(InboundMessagesPage)
export class InboundMessagesPageHandler implements IQueryHandler<
  InboundMessagesPage,
  ListPage<ApiInboundMessage>
> {
  constructor(private readonly reader: ComplianceReader) {}

  async execute({
    walletId,
    limit,
    startingAfter,
  }: InboundMessagesPage): Promise<ListPage<ApiInboundMessage>> {
    const docs = await this.reader.inboundPage(walletId, limit + 1, startingAfter);
    return page(
      docs.map((doc) => toApiInbound(doc.data)),
      limit,
    );
  }
}

@QueryHandler(UnassignedInboundMessages)
export class UnassignedInboundMessagesHandler implements IQueryHandler<
  UnassignedInboundMessages,
  ApiInboundMessage[]
> {
  constructor(private readonly reader: ComplianceReader) {}

  async execute({ limit }: UnassignedInboundMessages): Promise<ApiInboundMessage[]> {
    const docs = await this.reader.inboundPage(UNASSIGNED_PARTITION, limit);
    return docs.map((doc) => toApiInbound(doc.data));
  }
}

@QueryHandler(OptOutsPage)
export class OptOutsPageHandler implements IQueryHandler<OptOutsPage, ListPage<ApiOptOut>> {
  constructor(private readonly reader: ComplianceReader) {}

  async execute({ walletId, limit, startingAfter }: OptOutsPage): Promise<ListPage<ApiOptOut>> {
    const docs = await this.reader.optOutPage(walletId, limit + 1, startingAfter);
    return page(docs.map(toApiOptOut), limit);
  }
}
