import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsDefined,
  IsOptional,
  IsString,
  Matches,
} from 'class-validator';
import { PageLimit } from '../../shared/http/pagination';
import { RequiredString } from '../../shared/http/required-string.decorator';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhook.events';

/**
 * POST /v1/webhook_endpoints. The URL's rules (absolute, https for LIVE, public address) and the
 * event names are the webhooks domain's (invalid_url, invalid_event_type).
 */
export class CreateWebhookEndpointDto {
  @ApiProperty({
    example: 'https://shop.example/webhooks/sms',
    description: 'LIVE: https and a public address',
  })
  @RequiredString('url', { notEmpty: true })
  url!: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true, example: ['message.delivered', 'message.failed'] })
  @IsDefined({ message: `events is required: a list of ${WEBHOOK_EVENT_TYPES.join(', ')}` })
  @IsArray({ message: `events must be a non-empty list of ${WEBHOOK_EVENT_TYPES.join(', ')}` })
  @ArrayNotEmpty({ message: `events must be a non-empty list of ${WEBHOOK_EVENT_TYPES.join(', ')}` })
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length * 4, { message: 'events lists too many event types' })
  events!: string[];
}

export class WebhookEndpointResponse {
  @ApiProperty({ example: 'we_…' }) id!: string;
  @ApiProperty({ example: 'webhook_endpoint' }) object!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true }) events!: string[];
  @ApiProperty({ enum: ['enabled', 'disabled'] }) status!: string;
  @ApiProperty() created_at!: string;
}

export class CreatedWebhookEndpointResponse extends WebhookEndpointResponse {
  @ApiProperty({ example: 'whsec_…', description: 'Signs every delivery; shown only in this answer' })
  secret!: string;
}

/** `GET /v1/events` query. */
export class WebhookEventsQueryDto {
  @ApiPropertyOptional({ description: 'Only events after this event id', example: 'evt_…' })
  @IsOptional()
  @IsString()
  @Matches(/^evt_[0-9A-Za-z]{8,64}$/, { message: 'after must be an event id (evt_…)' })
  after?: string;

  @PageLimit(100, 100)
  limit?: number;
}

export class WebhookEndpointListResponse {
  @ApiProperty({ example: 'list' }) object!: string;
  @ApiProperty({ type: [WebhookEndpointResponse] }) data!: WebhookEndpointResponse[];
  @ApiProperty() has_more!: boolean;
}

export class DeletedWebhookEndpointResponse {
  @ApiProperty({ example: 'we_…' }) id!: string;
  @ApiProperty({ example: 'webhook_endpoint' }) object!: string;
  @ApiProperty({ example: true }) deleted!: boolean;
}

export class WebhookEventResponse {
  @ApiProperty({ example: 'evt_…' }) id!: string;
  @ApiProperty({ example: 'event' }) object!: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES }) type!: string;
  @ApiProperty() created_at!: string;
  @ApiProperty({ description: 'Counts the states of this one message (or checkout): 1, 2, …' })
  sequence!: number;
  @ApiProperty({ description: 'The message or checkout object, as GET would answer it then' })
  data!: Record<string, unknown>;
}

export class WebhookEventListResponse {
  @ApiProperty({ example: 'list' }) object!: string;
  @ApiProperty({ type: [WebhookEventResponse] }) data!: WebhookEventResponse[];
  @ApiProperty() has_more!: boolean;
}
