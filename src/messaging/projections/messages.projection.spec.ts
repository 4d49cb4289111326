import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import { BatchView } from '../../shared/projections/batch-view';
import type { ReadStore } from '../../shared/read-store/read-store.port';
import { queuedData } from '../domain/message.test-support';
import { BATCH_MESSAGES, messagesProjection } from './messages.projection';

const empty = { get: async () => null } as unknown as ReadStore;

const queued = (messageId: string, extra: Record<string, unknown>): RecordedEvent => ({
  streamId: `message-${messageId}`,
  revision: 0n,
  position: 1n,
  type: 'MessageQueued',
  data: { ...queuedData, messageId, ...extra },
  metadata: {},
  recordedAt: new Date('2026-11-27T10:00:00Z'),
});

async function written(event: RecordedEvent) {
  const view = new BatchView(empty);
  await messagesProjection.apply(event, view);
  return view.writes().map((w) => `${w.collection} ${w.op}`);
}

describe('messagesProjection', () => {
  it('lists a batch send’s message under its batch, for ?batch=', async () => {
    expect(await written(queued('msg_1', { batchId: 'bat_1' }))).toContain(`${BATCH_MESSAGES} put`);
  });

  it('writes no batch entry for a campaign’s message: its id, derived from its place, finds it', async () => {
    const writes = await written(queued('msg_2', { campaignId: 'cmp_1' }));
    expect(writes).toContain('messages put');
    expect(writes).not.toContain(`${BATCH_MESSAGES} put`);
  });
});
