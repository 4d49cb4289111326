import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageLimit } from '../../shared/http/pagination';
import { RequiredString } from '../../shared/http/required-string.decorator';
import { MESSAGE_TYPE_CHOICES, MESSAGE_TYPES, MessageType } from '../domain/message-input';
import { SendAtField } from './send-at.decorator';

/**
 * A send body (POST /v1/messages, /v1/messages/quote, /v1/sandbox/messages) on the wire: each
 * field present and a string, `type` one of the two. What needs the domain (E.164 and routing,
 * sender id rules, segments) is checked by the domain's validateSendInput, with API.md's codes.
 */
export class SendMessageDto {
  @ApiProperty({ example: '+233241234567', description: 'E.164: + and 8–15 digits' })
  @RequiredString('to')
  to!: string;

  @ApiProperty({
    example: 'MyShop',
    description: '3–11 letters, digits or spaces with a letter, or 3–15 digits',
  })
  @RequiredString('sender_id')
  sender_id!: string;

  @ApiProperty({
    example: 'Your order has shipped',
    description: '1–10 segments (GSM-7 160/153, UCS-2 70/67)',
  })
  @RequiredString('message')
  message!: string;

  @ApiProperty({ enum: MESSAGE_TYPES })
  @RequiredString('type', { choices: MESSAGE_TYPE_CHOICES })
  @IsIn(MESSAGE_TYPES, {
    message: `type must be ${MESSAGE_TYPE_CHOICES}`,
    context: { code: 'invalid_type' },
  })
  type!: MessageType;

  @SendAtField()
  send_at?: string;
}

/** API.md's statuses: SCHEDULED → QUEUED → SENT → DELIVERED | FAILED | EXPIRED, and SCHEDULED → CANCELED. */
const MESSAGE_STATUSES = ['SCHEDULED', 'QUEUED', 'SENT', 'DELIVERED', 'FAILED', 'EXPIRED', 'CANCELED'];

/** `GET /v1/messages` query. */
export class ListMessagesQuery {
  @PageLimit(100, 20)
  limit?: number;

  @ApiPropertyOptional({ description: 'The last message id of the previous page', example: 'msg_…' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  starting_after?: string;

  @ApiPropertyOptional({
    description: 'Only the messages of this batch (POST /v1/messages/batch)',
    example: 'bat_…',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  batch?: string;

  @ApiPropertyOptional({
    description: 'Only the messages of this campaign (POST /v1/campaigns)',
    example: 'cmp_…',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  campaign?: string;
}

export class DeliveryReportResponse {
  @ApiProperty({ enum: ['DELIVERED', 'FAILED', 'EXPIRED'] }) status!: string;
  @ApiPropertyOptional({ nullable: true, example: 'undeliverable' }) error_code!: string | null;
  @ApiPropertyOptional({ nullable: true }) error_message!: string | null;
  @ApiPropertyOptional({ nullable: true, example: 'DELIVRD' }) carrier_status!: string | null;
  @ApiProperty() reported_at!: string;
}

export class MessageResponse {
  @ApiProperty({ example: 'msg_…' }) id!: string;
  @ApiProperty({ example: 'message' }) object!: string;
  @ApiProperty({ enum: MESSAGE_STATUSES }) status!: string;
  @ApiProperty({ enum: ['TEST', 'LIVE'] }) environment!: string;
  @ApiProperty() to!: string;
  @ApiProperty() sender_id!: string;
  @ApiProperty() message!: string;
  @ApiProperty() type!: string;
  @ApiProperty({ example: 'MTN' }) carrier!: string;
  @ApiProperty({ enum: ['GSM-7', 'UCS-2'] }) encoding!: string;
  @ApiProperty() segments!: number;
  @ApiProperty() credits!: number;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'When a scheduled send is (or was) due; null otherwise',
  })
  send_at!: string | null;
  @ApiPropertyOptional({ type: DeliveryReportResponse, nullable: true }) dlr!: DeliveryReportResponse | null;
}

export class MessageListResponse {
  @ApiProperty({ example: 'list' }) object!: string;
  @ApiProperty({ type: [MessageResponse] }) data!: MessageResponse[];
  @ApiProperty() has_more!: boolean;
}

export class QuoteResponse {
  @ApiProperty({ example: 'quote' }) object!: string;
  @ApiProperty() to!: string;
  @ApiProperty() carrier!: string;
  @ApiProperty() encoding!: string;
  @ApiProperty() segments!: number;
  @ApiProperty() credits!: number;
  @ApiProperty() sms_left!: number;
  @ApiProperty() sendable!: boolean;
}
