import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiKeyGuard, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import { parseLimit } from '../../shared/http/pagination';
import { IdempotentSend, parseIdempotencyKey } from '../application/idempotent-send.service';
import { MessageQueries } from '../application/message-queries.service';
import { SendContext, SendMessage } from '../application/send-message.service';
import { MessageListResponse, MessageResponse, QuoteResponse, SendMessageRequest } from './message.dto';

const walletContext = (p: Principal): Extract<SendContext, { mode: 'wallet' }> => ({
  mode: 'wallet',
  walletId: p.walletId,
  accountId: p.accountId,
  environment: p.environment,
});

@ApiTags('messages')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/messages')
export class MessagesHttpController {
  constructor(
    private readonly sender: SendMessage,
    private readonly idempotent: IdempotentSend,
    private readonly queries: MessageQueries,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Send one SMS: reserves its credits and queues it (status QUEUED); the outcome comes later in dlr',
  })
  @ApiBody({ type: SendMessageRequest })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: '1–255 printable characters; kept 24 h per wallet',
  })
  @ApiOkResponse({ type: MessageResponse })
  async send(
    @CurrentPrincipal() principal: Principal,
    @Body() body: unknown,
    @Headers('idempotency-key') rawKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const key = parseIdempotencyKey(rawKey);
    const ctx = walletContext(principal);
    if (key === null) return (await this.sender.send(body, ctx)).message;
    const outcome = await this.idempotent.send(key, body, ctx);
    if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
    return outcome.message;
  }

  @Post('quote')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'What a send would cost (carrier, encoding, segments, credits) and whether sms_left covers it; nothing is reserved',
  })
  @ApiBody({ type: SendMessageRequest })
  @ApiOkResponse({ type: QuoteResponse })
  quote(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    return this.queries.quote(body, walletContext(principal));
  }

  @Get()
  @ApiOperation({ summary: "The wallet's messages, newest first" })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 20' })
  @ApiQuery({
    name: 'starting_after',
    required: false,
    description: 'The last message id of the previous page',
  })
  @ApiOkResponse({ type: MessageListResponse })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query('limit') limit?: string,
    @Query('starting_after') startingAfter?: string,
  ) {
    return this.queries.list(
      { walletId: principal.walletId, environment: principal.environment },
      parseLimit(limit),
      startingAfter,
    );
  }

  @Get(':id')
  @ApiOperation({ summary: 'One message with its delivery report (dlr) once known' })
  @ApiOkResponse({ type: MessageResponse })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.queries.get(id, { walletId: principal.walletId, environment: principal.environment });
  }
}
