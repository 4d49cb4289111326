import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { SendMessageDto } from '../../messaging/http/message.dto';
import { SendAtField } from '../../messaging/http/send-at.decorator';
import { PageLimit } from '../../shared/http/pagination';
import { RequiredString } from '../../shared/http/required-string.decorator';
import { MAX_AUDIENCE_CONTACTS, MAX_AUDIENCE_GROUPS, MAX_CAMPAIGN_NAME } from '../domain/campaign-input';
import { MAX_RECIPIENTS } from '../domain/campaign.events';

/**
 * The campaign endpoints' wire shapes (API.md, "Campaigns to audiences"). What a field must mean
 * (a sender ID, a template's placeholders, groups and contacts that exist, a send_at ahead) is the
 * domain's rule, answered with its own code.
 */
export class CampaignAudienceDto {
  @ApiPropertyOptional({
    type: [String],
    example: ['grp_…'],
    description: `Up to ${MAX_AUDIENCE_GROUPS} groups`,
  })
  @IsOptional()
  @IsArray({ message: 'audience.groups must be a list of group ids' })
  @IsString({ each: true, message: 'audience.groups must be a list of group ids' })
  @ArrayMaxSize(MAX_AUDIENCE_GROUPS, {
    message: `audience.groups names at most ${MAX_AUDIENCE_GROUPS} groups`,
  })
  groups?: string[];

  @ApiPropertyOptional({
    type: [String],
    example: ['con_…'],
    description: 'Single contacts, besides the groups',
  })
  @IsOptional()
  @IsArray({ message: 'audience.contacts must be a list of contact ids' })
  @IsString({ each: true, message: 'audience.contacts must be a list of contact ids' })
  @ArrayMaxSize(MAX_AUDIENCE_CONTACTS, {
    message: `audience.contacts names at most ${MAX_AUDIENCE_CONTACTS} contacts`,
  })
  contacts?: string[];
}

export class CreateCampaignDto extends PickType(SendMessageDto, ['sender_id', 'type'] as const) {
  @ApiProperty({ example: 'Term reminder', description: `Up to ${MAX_CAMPAIGN_NAME} characters` })
  @RequiredString('name', { notEmpty: true })
  @MaxLength(MAX_CAMPAIGN_NAME * 4, { message: `name must be at most ${MAX_CAMPAIGN_NAME} characters` })
  name!: string;

  @ApiPropertyOptional({
    example: 'Dear {{first_name|Parent}}, {{class}} resumes on Monday.',
    description:
      'The message, with placeholders if you like ({{name}}, {{phone_number}}, {{<field>|fallback}}); or give template_id',
  })
  @IsOptional()
  @IsString({ message: 'message must be a string' })
  message?: string;

  @ApiPropertyOptional({ example: 'tpl_…', description: 'A saved template, in place of message' })
  @IsOptional()
  @IsString({ message: 'template_id must be a string' })
  @MaxLength(64)
  template_id?: string;

  @ApiProperty({
    type: CampaignAudienceDto,
    description: `Groups and/or single contacts; each number gets one message (up to ${MAX_RECIPIENTS.toLocaleString('en-US')} recipients)`,
  })
  @IsDefined({ message: 'audience is required', context: { code: 'parameter_missing' } })
  @IsObject({ message: 'audience must be an object with groups and/or contacts' })
  @ValidateNested()
  @Type(() => CampaignAudienceDto)
  audience!: CampaignAudienceDto;

  /** Every message of the campaign is scheduled for this time (sent now without it). */
  @SendAtField()
  send_at?: string;
}

export class CampaignsQueryDto {
  @PageLimit(100, 20)
  limit?: number;

  @ApiPropertyOptional({ description: 'The last campaign of the previous page (its id)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  starting_after?: string;
}

class SkippedResponse {
  @ApiProperty({ description: 'Opted-out numbers (promotional campaigns only)' }) opted_out!: number;
  @ApiProperty({ description: 'Contacts lacking a placeholder’s field that has no fallback' })
  missing_field!: number;
  @ApiProperty({ description: 'Extra times a number was reached (two groups, or a group and a contact)' })
  duplicate!: number;
  @ApiProperty({
    description:
      'Contacts the send path would refuse: a number no route or connected carrier reaches, or a personalised text over 10 segments',
  })
  unsendable!: number;
}

class CarrierCountsResponse {
  @ApiProperty() delivered!: number;
  @ApiProperty() failed!: number;
  @ApiProperty() expired!: number;
  @ApiProperty({ description: 'Not final yet (SCHEDULED, QUEUED or SENT)' }) pending!: number;
}

class CampaignAudienceResponse {
  @ApiProperty({ type: [String] }) groups!: string[];
  @ApiProperty({ type: [String] }) contacts!: string[];
}

export class CampaignResponse {
  @ApiProperty({ example: 'campaign' }) object!: string;
  @ApiProperty({ example: 'cmp_…' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({
    enum: ['scheduled', 'sending', 'completed', 'canceled'],
    description: 'completed once every message is final',
  })
  status!: string;
  @ApiProperty({ enum: ['TEST', 'LIVE'] }) environment!: string;
  @ApiProperty({ enum: ['transactional', 'promotional'] }) type!: string;
  @ApiProperty() sender_id!: string;
  @ApiProperty({ description: 'The message as written, placeholders and all' }) message!: string;
  @ApiProperty({ nullable: true }) template_id!: string | null;
  @ApiProperty({ type: CampaignAudienceResponse }) audience!: CampaignAudienceResponse;
  @ApiProperty({ nullable: true }) send_at!: string | null;
  @ApiProperty({ description: 'Messages to send: one per number' }) recipients!: number;
  @ApiProperty({ type: SkippedResponse }) skipped!: SkippedResponse;
  @ApiProperty({ description: 'Held at once when the campaign was accepted' }) credits_reserved!: number;
  @ApiProperty({
    description: 'Messages by status: SCHEDULED, QUEUED, SENT, DELIVERED, FAILED, EXPIRED, CANCELED',
    example: { SCHEDULED: 0, QUEUED: 0, SENT: 2, DELIVERED: 40, FAILED: 1, EXPIRED: 0, CANCELED: 0 },
  })
  counts!: Record<string, number>;
  @ApiProperty({
    description: 'Per carrier',
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/CarrierCountsResponse' },
  })
  by_carrier!: Record<string, CarrierCountsResponse>;
  @ApiProperty({ description: 'Credits captured: delivered messages only' }) credits_spent!: number;
  @ApiProperty({ nullable: true, description: 'The campaign this one retries' }) retry_of!: string | null;
  @ApiProperty() created_at!: string;
  @ApiProperty({ nullable: true }) completed_at!: string | null;
}

export { CarrierCountsResponse };

export class CampaignListResponse {
  @ApiProperty({ example: 'list' }) object!: string;
  @ApiProperty({ type: [CampaignResponse] }) data!: CampaignResponse[];
  @ApiProperty() has_more!: boolean;
}

class SampleResponse {
  @ApiProperty({ example: '+233241234567' }) to!: string;
  @ApiProperty({ example: 'Dear Ama, JSS 2 resumes on Monday.' }) message!: string;
  @ApiProperty() segments!: number;
}

export class CampaignQuoteResponse {
  @ApiProperty({ example: 'campaign_quote' }) object!: string;
  @ApiProperty() recipients!: number;
  @ApiProperty({ type: SkippedResponse }) skipped!: SkippedResponse;
  @ApiProperty({ description: 'Every recipient’s segments together' }) segments!: number;
  @ApiProperty({ description: 'One per segment' }) credits!: number;
  @ApiProperty() sms_left!: number;
  @ApiProperty({ description: 'Someone to send to, and credits for all of them' }) sendable!: boolean;
  @ApiProperty({ type: [SampleResponse], description: 'The first 5 personalised messages' })
  samples!: SampleResponse[];
}
