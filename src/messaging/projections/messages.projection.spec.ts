import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import { BatchView } from '../../shared/projections/batch-view';
import type { ReadStore } from '../../shared/read-store/read-store.port';
import { queuedData } from '../domain/message.test-support';
import { RETIRED_BATCH_MESSAGES, messagesProjection } from './messages.projection';

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
  it.each([
    ['a batch send’s message: the batch’s record names its messages', { batchId: 'bat_1' }],
    ['a campaign’s message: its id, derived from its place, finds it', { campaignId: 'cmp_1' }],
  ])('writes the message and its open entry, and no index entry, for %s', async (_, origin) => {
    const writes = await written(queued('msg_1', origin));
    expect(writes).toEqual(expect.arrayContaining(['messages put', 'message-open put']));
    expect(writes).not.toContain(`${RETIRED_BATCH_MESSAGES} put`);
  });
});
