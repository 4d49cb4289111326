import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ListPage, page } from '../../../shared/http/pagination';
import { SENDER_ID_STATUSES } from '../../domain/sender-id.decider';
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
export class SenderIdRequestsHandler implements IQueryHandler<SenderIdRequests> {
  constructor(private readonly reader: ComplianceReader) {}

  async execute({ status }: SenderIdRequests) {
    await this.reader.caughtUp();
    const listed = await Promise.all(
      (status ? [status] : SENDER_ID_STATUSES).map((partition) =>
        this.reader.reads.list<SenderIdDoc>(SENDER_IDS_BY_STATUS, {
          partition,
          order: 'asc',
          limit: MAX_LISTED,
        }),
      ),
    );
    return Promise.all(
      listed.flat().map(async (doc) => ({
        ...toApiSenderId(doc),
        account_id: doc.accountId,
        email: await this.reader.emailOf(doc.accountId),
      })),
    );
  }
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
