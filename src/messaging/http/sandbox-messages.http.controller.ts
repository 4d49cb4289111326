import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { RateLimiter } from '../../shared/http/rate-limiter';
import { MessageQueries } from '../application/message-queries.service';
import { SendMessage } from '../application/send-message.service';
import { MessageResponse, SendMessageRequest } from './message.dto';

/** The key-less try-out: sandbox numbers only, simulated end to end, no wallet touched. */
@ApiTags('sandbox')
@Controller('v1/sandbox/messages')
export class SandboxMessagesHttpController {
  constructor(
    private readonly sender: SendMessage,
    private readonly queries: MessageQueries,
    private readonly limiter: RateLimiter,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Try a send without a key: only the four sandbox numbers, simulated under TEST' })
  @ApiBody({ type: SendMessageRequest })
  @ApiOkResponse({ type: MessageResponse })
  async send(@Req() request: FastifyRequest, @Body() body: unknown) {
    this.limiter.consumeForAddress(request.ip);
    return (await this.sender.send(body, { mode: 'sandbox' })).message;
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read a try-out message and its delivery report' })
  @ApiOkResponse({ type: MessageResponse })
  get(@Req() request: FastifyRequest, @Param('id') id: string) {
    this.limiter.consumeForAddress(request.ip);
    return this.queries.get(id, 'sandbox');
  }
}
