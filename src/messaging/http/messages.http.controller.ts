import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiKeyGuard, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import { ApiErrors } from '../../shared/http/api-errors.decorator';
import { CancelMessage } from '../application/commands/cancel-message.command';
import { SendMessage } from '../application/commands/send-message.command';
import { MessageById } from '../application/queries/message-by-id.query';
import { MessageQuote } from '../application/queries/message-quote.query';
import { MessagesPage } from '../application/queries/messages-page.query';
import type { SendContext } from '../application/send-pipeline.service';
import { IdempotencyKeyHeader } from './idempotency-key.header';
import {
  ListMessagesQuery,
  MessageListResponse,
  MessageResponse,
  QuoteResponse,
  SendMessageDto,
} from './message.dto';

export const walletContext = (p: Principal): Extract<SendContext, { mode: 'wallet' }> => ({
  mode: 'wallet',
  walletId: p.walletId,
  accountId: p.accountId,
  environment: p.environment,
});

const scopeOf = (p: Principal) => ({ walletId: p.walletId, environment: p.environment });

/** The codes a send body can be refused with before anything is reserved (API.md). */
const SEND_REFUSALS = [
  'invalid_phone_number',
  'unsupported_destination',
  'invalid_sender_id',
  'invalid_message',
  'message_too_long',
  'invalid_type',
  'invalid_send_at',
  'carrier_unavailable',
];

@ApiTags('messages')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/messages')
export class MessagesHttpController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Send one SMS: reserves its credits and queues it (status QUEUED), or with send_at schedules it (status SCHEDULED); the outcome comes later in dlr',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      '1–255 printable characters; kept 24 h per wallet. A replay answers with Idempotent-Replayed: true',
  })
  @ApiOkResponse({ type: MessageResponse })
  @ApiErrors(
    {
      400: [...SEND_REFUSALS, 'invalid_idempotency_key'],
      402: ['insufficient_credit'],
      409: ['idempotency_request_in_progress'],
      422: ['idempotency_key_reused'],
      503: ['send_abandoned'],
    },
    { body: true },
  )
  async send(
    @CurrentPrincipal() principal: Principal,
    @Body() body: SendMessageDto,
    @IdempotencyKeyHeader() key: string | null,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const sent = await this.commands.execute(new SendMessage(walletContext(principal), body, key));
    if (sent.replayed) reply.header('Idempotent-Replayed', 'true');
    return sent.message;
  }

  @Post('quote')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'What a send would cost (carrier, encoding, segments, credits) and whether sms_left covers it; nothing is reserved',
  })
  @ApiOkResponse({ type: QuoteResponse })
  @ApiErrors({ 400: SEND_REFUSALS }, { body: true })
  quote(@CurrentPrincipal() principal: Principal, @Body() body: SendMessageDto) {
    return this.queries.execute(new MessageQuote(walletContext(principal), body));
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Cancel a SCHEDULED message before its send_at: it becomes CANCELED and its credits are released',
  })
  @ApiOkResponse({ type: MessageResponse })
  @ApiErrors({ 404: ['resource_missing'], 409: ['message_not_cancelable'] })
  cancel(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.commands.execute(new CancelMessage(id, scopeOf(principal)));
  }

  @Get()
  @ApiOperation({ summary: "The wallet's messages, newest first" })
  @ApiOkResponse({ type: MessageListResponse })
  @ApiErrors({
    400: ['invalid_limit', 'parameter_invalid (batch with campaign)'],
    404: ['resource_missing (starting_after, batch, campaign)'],
  })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListMessagesQuery) {
    return this.queries.execute(
      new MessagesPage(
        scopeOf(principal),
        query.limit ?? 20,
        query.starting_after,
        query.batch,
        query.campaign,
      ),
    );
  }

  @Get(':id')
  @ApiOperation({ summary: 'One message with its delivery report (dlr) once known' })
  @ApiOkResponse({ type: MessageResponse })
  @ApiErrors({ 404: ['resource_missing'] })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.queries.execute(new MessageById(id, scopeOf(principal)));
  }
}
