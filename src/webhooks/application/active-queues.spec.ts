import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteReadStore } from '../../shared/read-store/sqlite/sqlite-read-store.adapter';
import { WEBHOOK_ENDPOINTS } from '../projections/webhook-endpoints.projection';
import { ACTIVE_PARTITION, WEBHOOK_QUEUES, WebhookQueueDoc } from '../projections/webhook-outbox.projection';
import { activeQueuesByWallet } from './active-queues';

describe('activeQueuesByWallet', () => {
  let dir: string;
  let store: SqliteReadStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'active-queues-'));
    store = new SqliteReadStore(join(dir, 'read.db'));
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads every active queue, page after page, grouped by wallet', async () => {
    const queues = 12_345;
    const writes = Array.from({ length: queues }, (_, i) => {
      const endpointId = `we_${String(i).padStart(6, '0')}`;
      const doc: WebhookQueueDoc =
        i === 0 ? { endpointId, pending: 1 } : { endpointId, walletId: `wal_${i % 700}`, pending: 1 };
      return {
        op: 'put' as const,
        collection: WEBHOOK_QUEUES,
        id: endpointId,
        doc,
        index: { partition: ACTIVE_PARTITION, sort: endpointId },
      };
    });
    // A queue recorded before queues named their wallet: its endpoint says whose it is.
    writes.push({
      op: 'put',
      collection: WEBHOOK_ENDPOINTS,
      id: 'we_000000',
      doc: { walletId: 'wal_old' } as unknown as WebhookQueueDoc,
      index: { partition: 'wal_old', sort: 'we_000000' },
    });
    await store.commit('test', writes, 1n);

    const byWallet = await activeQueuesByWallet(store, 1000);

    const read = [...byWallet.values()].flat().map((q) => q.endpointId);
    expect(read).toHaveLength(queues);
    expect(new Set(read).size).toBe(queues);
    expect(byWallet.get('wal_old')?.map((q) => q.endpointId)).toEqual(['we_000000']);
    expect(byWallet.get('wal_1')).toHaveLength(18); // i = 1, 701, …, 11901
  });
});
