import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { AggregateStore } from '../../shared/event-store/aggregate-store';
import { BatchView } from '../../shared/projections/batch-view';
import type { ReadStore } from '../../shared/read-store/read-store.port';
import { queuedData } from '../domain/message.test-support';
import { dispatchProjection, type MessageDispatcher } from './message-dispatcher.service';

const queued: RecordedEvent = {
  streamId: 'message-msg_1',
  revision: 0n,
  position: 7n,
  type: 'MessageQueued',
  data: { ...queuedData, messageId: 'msg_1' },
  metadata: {},
  recordedAt: new Date('2026-11-27T10:00:00Z'),
};

function setUp(turnIsNear: boolean) {
  const dispatcher = {
    partitionOf: () => 0,
    hint: jest.fn(),
    forget: jest.fn(),
    turnIsNear: () => turnIsNear,
  };
  const aggregates = { remember: jest.fn() };
  const projection = dispatchProjection(
    dispatcher as unknown as MessageDispatcher,
    aggregates as unknown as AggregateStore,
  );
  return { projection, dispatcher, aggregates, view: new BatchView({} as ReadStore) };
}

describe('the dispatch process manager', () => {
  it('remembers a queued message’s state for its submission when its turn is near', async () => {
    const { projection, dispatcher, aggregates, view } = setUp(true);
    await projection.apply(queued, view);
    expect(aggregates.remember).toHaveBeenCalledWith(
      'message-msg_1',
      expect.anything(),
      expect.objectContaining({ revision: 0n, state: expect.objectContaining({ status: 'QUEUED' }) }),
    );
    expect(dispatcher.hint).toHaveBeenCalledWith('msg_1', { queuedAt: queued.recordedAt });
  });

  it('keeps no state for one far back in the queue, but lists and hints it all the same', async () => {
    const { projection, dispatcher, aggregates, view } = setUp(false);
    await projection.apply(queued, view);
    expect(aggregates.remember).not.toHaveBeenCalled();
    expect(dispatcher.hint).toHaveBeenCalledWith('msg_1', { queuedAt: queued.recordedAt });
    expect(view.writes().map((w) => `${w.collection} ${w.op} ${w.id}`)).toEqual([
      'message-dispatch put msg_1',
    ]);
  });
});
