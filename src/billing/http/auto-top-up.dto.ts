import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';

/** PUT /v1/wallet/auto_topup. */
export class AutoTopUpDto {
  @ApiProperty({ example: true })
  @IsDefined({ message: 'enabled is required: true or false' })
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled!: boolean;

  @ApiPropertyOptional({
    example: 200,
    description: 'Top up when sms_left falls to or below this (default: as set before)',
  })
  @IsOptional()
  @IsInt({
    message: 'threshold must be a whole number of credits, 0 or more',
    context: { code: 'invalid_threshold' },
  })
  @Min(0, {
    message: 'threshold must be a whole number of credits, 0 or more',
    context: { code: 'invalid_threshold' },
  })
  threshold?: number;

  @ApiPropertyOptional({
    example: 'pkg_starter',
    description: 'The package bought each time (default: as set before)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  package_id?: string;
}

export class SavedCardResponse {
  @ApiProperty({ example: 'visa' }) brand!: string;
  @ApiProperty({ example: '4081' }) last4!: string;
  @ApiProperty({ example: '12' }) exp_month!: string;
  @ApiProperty({ example: '2030' }) exp_year!: string;
}

export class AutoTopUpFailureResponse {
  @ApiProperty({ example: 'failed: Declined' }) reason!: string;
  @ApiProperty() at!: string;
}

export class AutoTopUpResponse {
  @ApiProperty({ example: 'auto_topup' }) object!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: Number, nullable: true, example: 200 }) threshold!: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'pkg_starter' }) package_id!: string | null;
  @ApiProperty({
    type: SavedCardResponse,
    nullable: true,
    description: 'The card of an earlier payment that it charges',
  })
  card!: SavedCardResponse | null;
  @ApiProperty({ description: '3 failed top-ups in a row turn auto top-up off' }) failures_in_a_row!: number;
  @ApiProperty({ type: AutoTopUpFailureResponse, nullable: true })
  last_failure!: AutoTopUpFailureResponse | null;
}
