import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { PageLimit } from '../../shared/http/pagination';
import { WALLET_EVENT_TYPES } from '../domain/wallet.events';

/** `GET /v1/wallet/events` query: validated by class-validator into API.md's 400s. */
export class WalletEventsQuery {
  @ApiPropertyOptional({ description: 'Only events after this revision', example: '41' })
  @IsOptional()
  @Matches(/^\d{1,18}$/, {
    message: 'after must be a non-negative whole number',
    context: { code: 'parameter_invalid' },
  })
  after?: string;

  @PageLimit(1000, 100)
  limit?: number;
}

export class WalletEventResponse {
  @ApiProperty({ example: 'wallet_event' }) object!: string;
  @ApiProperty({ description: "The event's place in the wallet's stream, from 0" }) revision!: number;
  @ApiProperty({
    example: 'CreditsReserved',
    enum: WALLET_EVENT_TYPES,
  })
  type!: string;
  @ApiProperty({ description: 'The event as recorded; credits are integers' }) data!: Record<string, unknown>;
  @ApiProperty() recorded_at!: string;
}

export class WalletEventListResponse {
  @ApiProperty({ example: 'list' }) object!: string;
  @ApiProperty({ type: [WalletEventResponse] }) data!: WalletEventResponse[];
  @ApiProperty() has_more!: boolean;
}
