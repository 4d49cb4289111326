import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../shared/http/api-errors.decorator';
import { PerAddressRateLimit } from '../../shared/http/rate-limiter';
import { SendMessage } from '../application/commands/send-message.command';
import { MessageById } from '../application/queries/message-by-id.query';
import { MessageResponse, SendMessageDto } from './message.dto';

/** The key-less try-out: sandbox numbers only, simulated end to end, no wallet touched. */
@ApiTags('sandbox')
@UseGuards(PerAddressRateLimit)
@Controller('v1/sandbox/messages')
export class SandboxMessagesHttpController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Try a send without a key: only the four sandbox numbers, simulated under TEST' })
  @ApiOkResponse({ type: MessageResponse })
  @ApiErrors(
    {
      400: [
        'sandbox_number_required',
        'invalid_sender_id',
        'invalid_message',
        'message_too_long',
        'invalid_type',
      ],
    },
    { body: true, auth: false },
  )
  async send(@Body() body: SendMessageDto) {
    return (await this.commands.execute(new SendMessage({ mode: 'sandbox' }, body))).message;
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read a try-out message and its delivery report' })
  @ApiOkResponse({ type: MessageResponse })
  @ApiErrors({ 404: ['resource_missing'] }, { auth: false })
  get(@Param('id') id: string) {
    return this.queries.execute(new MessageById(id, 'sandbox'));
  }
}
