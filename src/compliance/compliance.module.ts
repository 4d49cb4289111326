import { Inject, Module } from '@nestjs/common';
import { CLOCK, Clock } from '../shared/clock';
import { AggregateStore } from '../shared/event-store/aggregate-store';
import { ProjectionsService } from '../shared/projections/projections.service';
import { AssignNumberHandler } from './application/commands/assign-number.handler';
import { AddOptOutHandler, RemoveOptOutHandler } from './application/commands/change-opt-out.handler';
import { DecideSenderIdHandler } from './application/commands/decide-sender-id.handler';
import { ReceiveInboundMessageHandler } from './application/commands/receive-inbound-message.handler';
import { RequestSenderIdHandler } from './application/commands/request-sender-id.handler';
import { SimulateInboundMessageHandler } from './application/commands/simulate-inbound-message.handler';
import { ComplianceGate } from './application/compliance-gate.service';
import { ComplianceReader } from './application/compliance-reader';
import { optOutsFromInboundProcess } from './application/opt-outs-from-inbound.process';
import {
  AssignedNumbersHandler,
  InboundMessagesPageHandler,
  OptOutsPageHandler,
  SenderIdRequestsHandler,
  SenderIdsListHandler,
  UnassignedInboundMessagesHandler,
} from './application/queries/compliance-lists.handler';
import {
  InboundMessagesHttpController,
  OptOutsHttpController,
  SandboxInboundHttpController,
  SenderIdsHttpController,
} from './http/compliance.http.controller';
import { OptedOutNumbersHandler } from './application/queries/opted-out-numbers.handler';
import { complianceProjection } from './projections/compliance.projection';

/**
 * Compliance (API.md): what carriers require of LIVE traffic. Sender IDs registered per account,
 * numbers assigned to accounts and the messages they receive, and opt-out lists per wallet.
 * The send path asks its ComplianceGate before it reserves anything.
 */
@Module({
  controllers: [
    SenderIdsHttpController,
    InboundMessagesHttpController,
    SandboxInboundHttpController,
    OptOutsHttpController,
  ],
  providers: [
    ComplianceGate,
    ComplianceReader,
    RequestSenderIdHandler,
    DecideSenderIdHandler,
    AssignNumberHandler,
    ReceiveInboundMessageHandler,
    SimulateInboundMessageHandler,
    AddOptOutHandler,
    RemoveOptOutHandler,
    SenderIdsListHandler,
    SenderIdRequestsHandler,
    AssignedNumbersHandler,
    InboundMessagesPageHandler,
    UnassignedInboundMessagesHandler,
    OptOutsPageHandler,
    OptedOutNumbersHandler,
  ],
  exports: [ComplianceGate],
})
export class ComplianceModule {
  constructor(projections: ProjectionsService, aggregates: AggregateStore, @Inject(CLOCK) clock: Clock) {
    projections.register(complianceProjection, optOutsFromInboundProcess(aggregates, clock));
  }
}
