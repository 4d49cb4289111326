import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentActor, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import type { Actor } from '../../shared/actor';
import { ApiErrors } from '../../shared/http/api-errors.decorator';
import { AddOptOut, RemoveOptOut } from '../application/commands/change-opt-out.command';
import { RequestSenderId } from '../application/commands/request-sender-id.command';
import { SimulateInboundMessage } from '../application/commands/simulate-inbound-message.command';
import {
  InboundMessagesPage,
  OptOutsPage,
  SenderIdsList,
} from '../application/queries/compliance-lists.query';
import {
  CursorQueryDto,
  DeletedOptOutResponse,
  InboundMessageListResponse,
  InboundMessageResponse,
  OptOutDto,
  OptOutListResponse,
  OptOutResponse,
  RequestSenderIdDto,
  SandboxInboundDto,
  SenderIdListResponse,
  SenderIdResponse,
} from './compliance.dto';

@ApiTags('compliance')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/sender_ids')
export class SenderIdsHttpController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Request a sender ID for the key's account (status pending until the operator approves or rejects it); LIVE sends need it approved",
  })
  @ApiOkResponse({ type: SenderIdResponse })
  @ApiErrors(
    {
      400: ['invalid_sender_id', 'message_too_long', 'too_many_pending_sender_ids'],
      409: ['sender_id_exists'],
    },
    { body: true },
  )
  request(
    @CurrentPrincipal() principal: Principal,
    @CurrentActor() actor: Actor,
    @Body() body: RequestSenderIdDto,
  ) {
    return this.commands.execute(
      new RequestSenderId(principal.accountId, body.sender_id, body.sample_message, actor),
    );
  }

  @Get()
  @ApiOperation({
    summary: "The account's sender IDs, oldest request first: pending, approved or rejected (with a reason)",
  })
  @ApiOkResponse({ type: SenderIdListResponse })
  @ApiErrors()
  list(@CurrentPrincipal() principal: Principal) {
    return this.queries.execute(new SenderIdsList(principal.accountId));
  }
}

@ApiTags('compliance')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/inbound_messages')
export class InboundMessagesHttpController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    summary: "Messages received on the account's assigned numbers in this environment, newest first",
  })
  @ApiOkResponse({ type: InboundMessageListResponse })
  @ApiErrors({ 400: ['invalid_limit'], 404: ['resource_missing (starting_after)'] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: CursorQueryDto) {
    return this.queries.execute(
      new InboundMessagesPage(principal.walletId, query.limit ?? 20, query.starting_after),
    );
  }
}

@ApiTags('compliance')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/sandbox/inbound')
export class SandboxInboundHttpController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      "TEST keys: simulate a reply to one of the account's assigned numbers, received exactly as from a carrier (STOP and START change the TEST opt-out list)",
  })
  @ApiOkResponse({ type: InboundMessageResponse })
  @ApiErrors(
    { 400: ['invalid_phone_number', 'invalid_message', 'number_not_assigned'], 403: ['test_key_required'] },
    { body: true },
  )
  simulate(@CurrentPrincipal() principal: Principal, @Body() body: SandboxInboundDto) {
    return this.commands.execute(
      new SimulateInboundMessage(principal.accountId, principal.environment, body),
    );
  }
}

@ApiTags('compliance')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/opt_outs')
export class OptOutsHttpController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({
    summary: "The environment's opt-out list, newest first: promotional sends to these numbers are refused",
  })
  @ApiOkResponse({ type: OptOutListResponse })
  @ApiErrors({ 400: ['invalid_limit'], 404: ['resource_missing (starting_after)'] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: CursorQueryDto) {
    return this.queries.execute(new OptOutsPage(principal.walletId, query.limit ?? 20, query.starting_after));
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Put a number on the opt-out list (idempotent)' })
  @ApiOkResponse({ type: OptOutResponse })
  @ApiErrors({ 400: ['invalid_phone_number'] }, { body: true })
  add(@CurrentPrincipal() principal: Principal, @Body() body: OptOutDto) {
    return this.commands.execute(
      new AddOptOut({ walletId: principal.walletId, phoneNumber: body.phone_number, source: 'api' }),
    );
  }

  @Delete(':phone_number')
  @ApiOperation({ summary: 'Take a number (URL-encoded E.164, %2B233…) off the opt-out list' })
  @ApiOkResponse({ type: DeletedOptOutResponse })
  @ApiErrors({ 400: ['invalid_phone_number'], 404: ['resource_missing'] })
  remove(@CurrentPrincipal() principal: Principal, @Param('phone_number') phoneNumber: string) {
    return this.commands.execute(
      new RemoveOptOut({ walletId: principal.walletId, phoneNumber, source: 'api' }),
    );
  }
}
