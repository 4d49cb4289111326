import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import { EVENT_STORE, EventStore } from '../../shared/event-store/event-store.port';
import { page, parseLimit, parseRevision } from '../../shared/http/pagination';
import { walletStream } from '../domain/wallet.events';

@ApiTags('wallet')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/wallet')
export class WalletEventsHttpController {
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  @Get('events')
  @ApiOperation({
    summary: "The wallet's own event stream, oldest first: replaying it from revision 0 gives sms_left",
  })
  @ApiQuery({ name: 'after', required: false, description: 'Only events after this revision' })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 1000, default 100' })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query('after') after?: string,
    @Query('limit') limit?: string,
  ) {
    const take = parseLimit(limit, 100, 1000);
    const from = (parseRevision(after, 'after') ?? -1n) + 1n;
    const events = await this.events.readStream(walletStream(principal.walletId), {
      fromRevision: from,
      limit: take + 1,
    });
    return page(
      events.map((e) => ({
        object: 'wallet_event',
        revision: Number(e.revision),
        type: e.type,
        data: e.data,
        recorded_at: e.recordedAt.toISOString(),
      })),
      take,
    );
  }
}
