import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { PageLimit } from '../../shared/http/pagination';
import { RequiredString } from '../../shared/http/required-string.decorator';
import { CODE_LENGTH, DEFAULT_TEMPLATE, EXPIRES_IN_SECONDS, MAX_CHECKS } from '../domain/verification-input';

/** An optional whole number in a range, refused with its own code (API.md's Verify). */
function WholeNumberIn(range: { min: number; max: number; default: number }, code: string, what: string) {
  const refusal = {
    message: `${what} must be a whole number from ${range.min} to ${range.max}`,
    context: { code },
  };
  return applyDecorators(
    ApiPropertyOptional({ minimum: range.min, maximum: range.max, default: range.default }),
    IsOptional(),
    IsInt(refusal),
    Min(range.min, refusal),
    Max(range.max, refusal),
  );
}

/**
 * POST /v1/verifications on the wire. `to` and `sender_id` are checked by messaging's send rules
 * (E.164 and routing, sender ID, LIVE approval), `message` holding `{{code}}` once by the domain.
 */
export class StartVerificationDto {
  @ApiProperty({ example: '+233241234567', description: 'E.164: the number to verify' })
  @RequiredString('to')
  to!: string;

  @ApiProperty({ example: 'MyShop', description: 'As for a send; LIVE needs an approved sender ID' })
  @RequiredString('sender_id')
  sender_id!: string;

  @ApiPropertyOptional({
    example: 'Your MyShop code is {{code}}',
    default: DEFAULT_TEMPLATE,
    description: 'The SMS text, with {{code}} exactly once; it is counted in segments like any message',
  })
  @IsOptional()
  @IsString({ message: 'message must be a string' })
  message?: string;

  @WholeNumberIn(CODE_LENGTH, 'invalid_code_length', 'code_length (digits)')
  code_length?: number;

  @WholeNumberIn(EXPIRES_IN_SECONDS, 'invalid_expires_in', 'expires_in (seconds)')
  expires_in?: number;

  @WholeNumberIn(MAX_CHECKS, 'invalid_max_checks', 'max_checks')
  max_checks?: number;
}

/** POST /v1/verifications/:id/check. */
export class CheckVerificationDto {
  @ApiProperty({ example: '123456', description: 'The code the user typed: 4 to 10 digits' })
  @RequiredString('code')
  @Matches(/^[0-9]{4,10}$/, { message: 'code must be 4 to 10 digits', context: { code: 'invalid_code' } })
  code!: string;
}

/** GET /v1/verifications. */
export class ListVerificationsQuery {
  @PageLimit(100, 20)
  limit?: number;

  @ApiPropertyOptional({ description: 'The last verification id of the previous page', example: 'ver_…' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  starting_after?: string;
}

const STATUSES = ['pending', 'approved', 'failed', 'expired', 'canceled'];

export class VerificationResponse {
  @ApiProperty({ example: 'verification' }) object!: string;
  @ApiProperty({ example: 'ver_…' }) id!: string;
  @ApiProperty({ example: '+233241234567' }) to!: string;
  @ApiProperty({
    enum: STATUSES,
    description: 'pending → approved | failed (checks used up) | expired | canceled; the last four are final',
  })
  status!: string;
  @ApiProperty({ enum: ['TEST', 'LIVE'] }) environment!: string;
  @ApiProperty({ description: 'After this the code no longer works (a resend starts it again)' })
  expires_at!: string;
  @ApiProperty() checks_left!: number;
  @ApiProperty({ description: 'SMS sent so far (at most 5)' }) sends!: number;
  @ApiProperty({ example: 'msg_…', description: 'The latest SMS: in /v1/messages with its code masked' })
  message_id!: string;
  @ApiProperty() created_at!: string;
}

export class VerificationWithTestCodeResponse extends VerificationResponse {
  @ApiPropertyOptional({
    example: '123456',
    description: 'Under a TEST key only (create and resend): the code sent, so a test can check it',
  })
  test_code?: string;
}

export class VerificationListResponse {
  @ApiProperty({ example: 'list' }) object!: string;
  @ApiProperty({ type: [VerificationResponse] }) data!: VerificationResponse[];
  @ApiProperty() has_more!: boolean;
}
