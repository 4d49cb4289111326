import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import { EVENT_STORE, EventStore } from '../../shared/event-store/event-store.port';
import { page } from '../../shared/http/pagination';
import { walletStream } from '../domain/wallet.events';
import { WalletEventsQuery } from './wallet-events.query.dto';

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
  async list(@CurrentPrincipal() principal: Principal, @Query() query: WalletEventsQuery) {
    const take = query.limit ?? 100;
    const from = query.after === undefined ? 0n : BigInt(query.after) + 1n;
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
