import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageLimit } from '../../shared/http/pagination';
import { RequiredString } from '../../shared/http/required-string.decorator';

/**
 * The compliance endpoints' wire shapes. What a field must mean (a sender ID's characters, an
 * E.164 number, an assigned number) is the domain's rule and answers its own code.
 */
export class RequestSenderIdDto {
  @ApiProperty({
    example: 'MyShop',
    description: '3–11 letters, digits or spaces with a letter, or 3–15 digits',
  })
  @RequiredString('sender_id', { notEmpty: true })
  sender_id!: string;

  @ApiProperty({
    example: 'Your order #1234 has shipped.',
    description: 'A message the sender ID will carry, for the carriers',
  })
  @RequiredString('sample_message', { notEmpty: true })
  sample_message!: string;
}

export class SenderIdResponse {
  @ApiProperty({ example: 'sender_id' }) object!: string;
  @ApiProperty({ example: 'MyShop' }) sender_id!: string;
  @ApiProperty({ enum: ['pending', 'approved', 'rejected'] }) status!: string;
  @ApiPropertyOptional({ nullable: true, description: 'Why it was rejected', example: null }) reason!:
    string | null;
  @ApiProperty() sample_message!: string;
  @ApiProperty() created_at!: string;
  @ApiPropertyOptional({ nullable: true }) decided_at!: string | null;
}

export class SenderIdListResponse {
  @ApiProperty({ example: 'list' }) object!: string;
  @ApiProperty({ type: [SenderIdResponse] }) data!: SenderIdResponse[];
  @ApiProperty() has_more!: boolean;
}

/** A cursor list's query: `limit` and the last item of the previous page. */
export class CursorQueryDto {
  @PageLimit(100, 20)
  limit?: number;

  @ApiPropertyOptional({ description: 'The last item of the previous page (its id, or its phone_number)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  starting_after?: string;
}

export class InboundMessageResponse {
  @ApiProperty({ example: 'inbound_message' }) object!: string;
  @ApiProperty({ example: 'in_…' }) id!: string;
  @ApiProperty({ example: '+233241234567' }) from!: string;
  @ApiProperty({ example: '+233501234567', description: 'The assigned long number or short code' })
  to!: string;
  @ApiProperty({ example: 'STOP' }) message!: string;
  @ApiProperty({ enum: ['TEST', 'LIVE'] }) environment!: string;
  @ApiProperty() received_at!: string;
}

export class InboundMessageListResponse {
  @ApiProperty({ example: 'list' }) object!: string;
  @ApiProperty({ type: [InboundMessageResponse] }) data!: InboundMessageResponse[];
  @ApiProperty() has_more!: boolean;
}

export class SandboxInboundDto {
  @ApiProperty({ example: '+233241234567', description: 'The replying phone (E.164)' })
  @RequiredString('from', { notEmpty: true })
  from!: string;

  @ApiProperty({ example: '+233501234567', description: "One of the account's assigned numbers" })
  @RequiredString('to', { notEmpty: true })
  to!: string;

  @ApiProperty({ example: 'STOP' })
  @RequiredString('message', { notEmpty: true })
  message!: string;
}

export class OptOutDto {
  @ApiProperty({ example: '+233241234567' })
  @RequiredString('phone_number', { notEmpty: true })
  phone_number!: string;
}

export class OptOutResponse {
  @ApiProperty({ example: 'opt_out' }) object!: string;
  @ApiProperty({ example: '+233241234567' }) phone_number!: string;
  @ApiProperty({ enum: ['inbound', 'api', 'console'] }) source!: string;
  @ApiProperty() created_at!: string;
}

export class OptOutListResponse {
  @ApiProperty({ example: 'list' }) object!: string;
  @ApiProperty({ type: [OptOutResponse] }) data!: OptOutResponse[];
  @ApiProperty() has_more!: boolean;
}

export class DeletedOptOutResponse {
  @ApiProperty({ example: 'opt_out' }) object!: string;
  @ApiProperty({ example: '+233241234567' }) phone_number!: string;
  @ApiProperty({ example: true }) deleted!: boolean;
}
