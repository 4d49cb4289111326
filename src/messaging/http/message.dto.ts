import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * OpenAPI description of a send body. Documentation only: bodies are checked by the domain's
 * validateSendInput, which answers API.md's codes (invalid_phone_number, …) with their param.
 */
export class SendMessageRequest {
  @ApiProperty({ example: '+233241234567', description: 'E.164: + and 8–15 digits' })
  to!: string;
  @ApiProperty({
    example: 'MyShop',
    description: '3–11 letters, digits or spaces with a letter, or 3–15 digits',
  })
  sender_id!: string;
  @ApiProperty({
    example: 'Your order has shipped',
    description: '1–10 segments (GSM-7 160/153, UCS-2 70/67)',
  })
  message!: string;
  @ApiProperty({ enum: ['transactional', 'promotional'] })
  type!: string;
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
  @ApiProperty({ enum: ['QUEUED', 'SENT', 'DELIVERED', 'FAILED', 'EXPIRED'] }) status!: string;
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
