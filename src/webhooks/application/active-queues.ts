import type { ReadStore } from '../../shared/read-store/read-store.port';
import { WEBHOOK_ENDPOINTS, WebhookEndpointDoc } from '../projections/webhook-endpoints.projection';
import { ACTIVE_PARTITION, WEBHOOK_QUEUES, WebhookQueueDoc } from '../projections/webhook-outbox.projection';

/** Outbox queues are read this many at a time, all of them on every tick. */
export const QUEUE_PAGE = 1000;

/**
 * Every endpoint with pending deliveries, by wallet, read page by page so that none is left
 * unread however many there are (a single capped read used to starve the queues past it).
 */
export async function activeQueuesByWallet(
  reads: ReadStore,
  pageSize = QUEUE_PAGE,
): Promise<Map<string, WebhookQueueDoc[]>> {
  const byWallet = new Map<string, WebhookQueueDoc[]>();
  let afterSort: string | undefined;
  for (;;) {
    const page = await reads.list<WebhookQueueDoc>(WEBHOOK_QUEUES, {
      partition: ACTIVE_PARTITION,
      order: 'asc',
      limit: pageSize,
      afterSort,
    });
    for (const queue of page) {
      // Queue documents from before wallets were recorded on them: the endpoint says whose.
      const walletId =
        queue.walletId ??
        (await reads.get<WebhookEndpointDoc>(WEBHOOK_ENDPOINTS, queue.endpointId))?.walletId ??
        queue.endpointId;
      const list = byWallet.get(walletId);
      if (list) list.push(queue);
      else byWallet.set(walletId, [queue]);
    }
    if (page.length < pageSize) return byWallet;
    afterSort = page[page.length - 1].endpointId;
  }
}
