import { Body, Controller, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteConfig } from '@nestjs/platform-fastify';
import {
  ApiBearerAuth,
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyGuard, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import { ApiErrors, ErrorResponse } from '../../shared/http/api-errors.decorator';
import { toErrorResponse } from '../../shared/http/error-body';
import { rememberErrorCode } from '../../shared/http/error-code';
import { SendBatch } from '../application/commands/send-batch.command';
import { BATCH_BODY_LIMIT_BYTES, BatchResponse, SendBatchDto } from './batch.dto';
import { IdempotencyKeyHeader } from './idempotency-key.header';
import { MessageResponse } from './message.dto';
import { walletContext } from './messages.http.controller';

/** The metrics' refusal code of a batch answered with every item refused. */
const BATCH_REFUSED = 'batch_refused';

@ApiTags('messages')
@ApiBearerAuth()
@ApiExtraModels(MessageResponse, ErrorResponse)
@UseGuards(ApiKeyGuard)
@Controller('v1/messages')
export class BatchMessagesHttpController {
  constructor(private readonly commands: CommandBus) {}

  @Post('batch')
  @HttpCode(200)
  @RouteConfig({ bodyLimit: BATCH_BODY_LIMIT_BYTES })
  @ApiOperation({
    summary:
      'Send 1 to 1,000 SMS in one request: every valid item is reserved at once or none (402); each refused item gets, in its slot, the error a single send would get (invalid_phone_number, unsupported_destination, invalid_message, message_too_long, carrier_unavailable, parameter_missing…) with param such as messages[3].to',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'Covers the whole batch: a replay answers the same batch with Idempotent-Replayed: true',
  })
  @ApiOkResponse({ type: BatchResponse })
  @ApiErrors(
    {
      400: [
        'invalid_batch_size',
        'invalid_sender_id',
        'invalid_type',
        'invalid_message',
        'message_too_long',
        'invalid_idempotency_key',
      ],
      402: ['insufficient_credit'],
      409: ['idempotency_request_in_progress'],
      413: ['body_too_large (over 2 MiB)'],
      422: ['idempotency_key_reused'],
    },
    { body: true },
  )
  async sendBatch(
    @CurrentPrincipal() principal: Principal,
    @Body() body: SendBatchDto,
    @IdempotencyKeyHeader() key: string | null,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { batch, replayed } = await this.commands.execute(
      new SendBatch(walletContext(principal), body, key),
    );
    if (replayed) reply.header('Idempotent-Replayed', 'true');
    // Answered 200, but nothing was sent: the metrics count it refused, not accepted.
    if (batch.accepted === 0) rememberErrorCode(request, BATCH_REFUSED);
    const requestId = String(request.id);
    return {
      object: 'batch',
      id: batch.id,
      // A refused item's slot is exactly the body a single send would have been refused with.
      data: batch.data.map((slot) =>
        'message' in slot ? slot.message : toErrorResponse(slot.error, requestId).body,
      ),
      accepted: batch.accepted,
      refused: batch.refused,
    };
  }
}
