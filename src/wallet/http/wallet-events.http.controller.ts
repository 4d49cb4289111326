import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import { ApiErrors } from '../../shared/http/api-errors.decorator';
import { WalletEventsPage } from '../application/queries/wallet-events-page.query';
import { WalletEventListResponse, WalletEventsQuery } from './wallet-events.query.dto';

@ApiTags('wallet')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/wallet')
export class WalletEventsHttpController {
  constructor(private readonly queries: QueryBus) {}

  @Get('events')
  @ApiOperation({
    summary: "The wallet's own event stream, oldest first: replaying it from revision 0 gives sms_left",
  })
  @ApiOkResponse({ type: WalletEventListResponse })
  @ApiErrors({ 400: ['invalid_limit', 'parameter_invalid (after)'] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: WalletEventsQuery) {
    const after = query.after === undefined ? null : BigInt(query.after);
    return this.queries.execute(new WalletEventsPage(principal.walletId, after, query.limit ?? 100));
  }
}
