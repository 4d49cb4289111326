import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsInt, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';

/** `GET /v1/wallet/statement?from&to`: the days' rules (a real UTC day, at most 366) are the domain's. */
export class StatementQuery {
  @ApiPropertyOptional({
    example: '2026-11-01',
    description: 'First UTC day (default: the first of `to`’s month)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(10, { message: 'from must be a UTC day such as 2026-11-01', context: { code: 'invalid_date' } })
  from?: string;

  @ApiPropertyOptional({ example: '2026-11-30', description: 'Last UTC day, included (default: today)' })
  @IsOptional()
  @IsString()
  @MaxLength(10, { message: 'to must be a UTC day such as 2026-11-30', context: { code: 'invalid_date' } })
  to?: string;
}

export class StatementDayResponse {
  @ApiProperty({ example: '2026-11-24' }) date!: string;
  @ApiProperty({ description: 'Credits bought that day' }) purchased!: number;
  @ApiProperty({ description: 'Credits granted that day (test credits, operator grants)' }) granted!: number;
  @ApiProperty({ description: 'Credits of delivered messages, captured that day' }) spent!: number;
  @ApiProperty() messages_delivered!: number;
  @ApiProperty({ description: 'Settled balance at the end of the day' }) closing_balance!: number;
}

export class StatementResponse {
  @ApiProperty({ example: 'statement' }) object!: string;
  @ApiProperty({ example: '2026-11-01' }) from!: string;
  @ApiProperty({ example: '2026-11-30' }) to!: string;
  @ApiProperty({ description: 'Settled balance (added minus spent) before `from`' }) opening_balance!: number;
  @ApiProperty() purchased!: number;
  @ApiProperty() granted!: number;
  @ApiProperty({ description: 'Open reservations are not spent; released ones never were' }) spent!: number;
  @ApiProperty({ description: 'opening_balance + purchased + granted - spent' }) closing_balance!: number;
  @ApiProperty({ type: [StatementDayResponse] }) days!: StatementDayResponse[];
}

/** PUT /v1/wallet/alerts. */
export class WalletAlertsDto {
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 500,
    description: 'Alert when sms_left falls to or below this many credits (at least 1); null for no alert',
  })
  @ValidateIf((o: WalletAlertsDto) => o.low_balance !== null)
  @IsDefined({ message: 'low_balance is required: a number of credits, or null for no alert' })
  @IsInt({
    message: 'low_balance must be a whole number of credits, or null',
    context: { code: 'invalid_threshold' },
  })
  low_balance!: number | null;
}

export class WalletAlertsResponse {
  @ApiProperty({ example: 'wallet_alerts' }) object!: string;
  @ApiProperty({ type: Number, nullable: true, example: 500 }) low_balance!: number | null;
}
