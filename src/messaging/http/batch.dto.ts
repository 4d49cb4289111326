import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsOptional, IsString } from 'class-validator';
import { MAX_BATCH_MESSAGES } from '../domain/batch-input';
import { ErrorResponse } from '../../shared/http/api-errors.decorator';
import { ShapedAs } from '../../shared/http/body-schema';
import { MessageResponse, SendMessageDto } from './message.dto';
import { SendAtField } from './send-at.decorator';

/** API.md: a batch body may be up to 2 MiB (1,000 items of up to 10 segments); others keep 16 KiB. */
export const BATCH_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

const batchSize = {
  message: `messages must hold 1 to ${MAX_BATCH_MESSAGES} items`,
  context: { code: 'invalid_batch_size' },
};

/**
 * One item of a batch. Its decorators give the body's shape (body-schema.ts: an object with these
 * fields only, each text when present); whether each item is sendable (`to` present and routable,
 * its message's length) is the domain's check per item, answered in the item's slot, so the
 * ValidationPipe neither converts nor validates items (`@ShapedAs`, not `@Type` and
 * `@ValidateNested`).
 */
export class BatchItemDto {
  @ApiProperty({ example: '+233241234567', description: 'E.164: + and 8–15 digits' })
  @IsOptional()
  @IsString({ message: 'to must be a string' })
  to!: string;

  @ApiPropertyOptional({
    example: 'Your code is 123456',
    description: 'This item’s text; the top-level message when absent',
  })
  @IsOptional()
  @IsString({ message: 'message must be a string' })
  message?: string;
}

/**
 * POST /v1/messages/batch on the wire: sender_id and type as a single send has them, an optional
 * shared message, and a list of 1 to 1,000 items. The items are not checked here: each gets the
 * refusal a single send would get in its own slot of the answer (BatchSend), not a 400 for all.
 */
export class SendBatchDto extends PickType(SendMessageDto, ['sender_id', 'type'] as const) {
  @ApiPropertyOptional({
    example: 'Our sale starts today',
    description: 'Used by every item that has no message of its own; 1–10 segments',
  })
  @IsOptional()
  @IsString({ message: 'message must be a string' })
  message?: string;

  /** Every item of the batch is scheduled for this time (or sent now without it). */
  @SendAtField()
  send_at?: string;

  @ApiProperty({ type: [BatchItemDto], minItems: 1, maxItems: MAX_BATCH_MESSAGES })
  @IsDefined({ message: 'messages is required', context: { code: 'parameter_missing' } })
  @IsArray({ message: 'messages must be a list of { to, message } items' })
  @ArrayMinSize(1, batchSize)
  @ArrayMaxSize(MAX_BATCH_MESSAGES, batchSize)
  @ShapedAs(() => BatchItemDto)
  messages!: BatchItemDto[];
}

export class BatchResponse {
  @ApiProperty({ example: 'batch' }) object!: string;
  @ApiProperty({
    example: 'bat_…',
    nullable: true,
    type: String,
    description: 'null when no item was accepted: nothing of the batch was recorded',
  })
  id!: string | null;
  @ApiProperty({
    description:
      'One slot per item, in order: the message object (status QUEUED, or SCHEDULED with a send_at), or { "error": { … } } in the error shape with param such as messages[3].to',
    type: 'array',
    items: {
      oneOf: [
        { $ref: '#/components/schemas/MessageResponse' },
        { $ref: '#/components/schemas/ErrorResponse' },
      ],
    },
  })
  data!: (MessageResponse | ErrorResponse)[];
  @ApiProperty({ description: 'Items sent (credits reserved)' }) accepted!: number;
  @ApiProperty({ description: 'Items refused, each with its error in its slot' }) refused!: number;
}
