import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore } from '../../../shared/event-store/event-store.port';
import { ListPage, page } from '../../../shared/http/pagination';
import { walletStream } from '../../domain/wallet.events';
import { WalletEventsPage, WalletEventView } from './wallet-events-page.query';

/** Read from the wallet's stream itself, not a read model: what was recorded, exactly. */
@QueryHandler(WalletEventsPage)
export class WalletEventsPageHandler implements IQueryHandler<WalletEventsPage, ListPage<WalletEventView>> {
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  async execute({ walletId, after, limit }: WalletEventsPage): Promise<ListPage<WalletEventView>> {
    const events = await this.events.readStream(walletStream(walletId), {
      fromRevision: after === null ? 0n : after + 1n,
      limit: limit + 1,
    });
    return page(
      events.map((e) => ({
        object: 'wallet_event' as const,
        revision: Number(e.revision),
        type: e.type,
        data: e.data,
        recorded_at: e.recordedAt.toISOString(),
      })),
      limit,
    );
  }
}
