import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

const LIMIT = { message: 'limit must be a whole number from 1 to 1000', context: { code: 'invalid_limit' } };

/** `GET /v1/wallet/events` query: validated by class-validator into API.md's 400s. */
export class WalletEventsQuery {
  @ApiPropertyOptional({ description: 'Only events after this revision', example: '41' })
  @IsOptional()
  @Matches(/^\d{1,18}$/, {
    message: 'after must be a non-negative whole number',
    context: { code: 'parameter_invalid' },
  })
  after?: string;

  @ApiPropertyOptional({ description: '1 to 1000', default: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt(LIMIT)
  @Min(1, LIMIT)
  @Max(1000, LIMIT)
  limit?: number;
}
