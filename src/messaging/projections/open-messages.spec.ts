import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import { BatchView, CommittedDocuments, PendingWrites } from '../../shared/projections/batch-view';
import type { DocumentWrite, ReadStore } from '../../shared/read-store/read-store.port';
import { campaignMessageId } from '../domain/campaign-message-ids';
import { batchMessageId } from '../domain/batch.events';
import { queuedData } from '../domain/message.test-support';
import { messagesProjection } from './messages.projection';
import { OPEN_MESSAGES, openMessageIds, openWindowOf, type OpenEntry } from './open-messages';

const VALID_UNTIL = queuedData.validUntil;
const BATCH = 'bat_0000000000000000000001';
const CAMPAIGN = 'cmp_0000000000000000000001';

/** A read store holding what the projection committed, as the runner would commit it. */
class Store {
  constructor(readonly docs = new Map<string, unknown>()) {}
  readonly reads = {
    get: async (collection: string, id: string) => this.docs.get(`${collection}/${id}`) ?? null,
  };
  private readonly committed = new CommittedDocuments(messagesProjection.collections);

  /** Applies one batch of events and commits its writes. */
  async apply(events: RecordedEvent[]): Promise<DocumentWrite[]> {
    const view = new BatchView(
      this.reads as unknown as ReadStore,
      new PendingWrites(this.reads as unknown as ReadStore, this.committed),
    );
    for (const event of events) await messagesProjection.apply(event, view);
    const writes = view.writes();
    for (const w of writes) {
      if (w.op === 'put') this.docs.set(`${w.collection}/${w.id}`, JSON.parse(JSON.stringify(w.doc)));
      else this.docs.delete(`${w.collection}/${w.id}`);
    }
    this.committed.committed(writes);
    return writes.filter((w) => w.collection === OPEN_MESSAGES);
  }

  open(): OpenEntry[] {
    return [...this.docs]
      .filter(([k]) => k.startsWith(`${OPEN_MESSAGES}/`))
      .map(([, doc]) => doc as OpenEntry);
  }
}

let position = 0n;
const accepted = (messageId: string, origin: Record<string, string> = {}): RecordedEvent => ({
  streamId: `message-${messageId}`,
  revision: 0n,
  position: ++position,
  type: 'MessageQueued',
  data: { ...queuedData, messageId, ...origin },
  metadata: {},
  recordedAt: new Date(),
});
const delivered = (messageId: string): RecordedEvent => ({
  streamId: `message-${messageId}`,
  revision: 1n,
  position: ++position,
  type: 'MessageDelivered',
  data: { errorCode: null, errorMessage: null, carrierStatus: 'DELIVRD', at: VALID_UNTIL, walletId: 'wal_1' },
  metadata: {},
  recordedAt: new Date(),
});

const batchIds = (n: number) => Array.from({ length: n }, (_, i) => batchMessageId(BATCH, i));

describe('open messages, listed by window', () => {
  it('names a window after the batch, or the thousand places of a campaign, and the end of validity; a single send is its own', () => {
    expect(openWindowOf({ messageId: 'msg_a', validUntil: VALID_UNTIL, batchId: BATCH })).toBe(
      `${BATCH}|${VALID_UNTIL}`,
    );
    const window = (place: number) =>
      openWindowOf({
        messageId: campaignMessageId(CAMPAIGN, place),
        validUntil: VALID_UNTIL,
        campaignId: CAMPAIGN,
      });
    expect(window(0)).toBe(window(999));
    expect(window(1000)).not.toBe(window(999));
    expect(openWindowOf({ messageId: 'msg_a', validUntil: VALID_UNTIL })).toBe('msg_a');
  });

  it('writes one entry for a batch’s messages, takes each off as it ends, and deletes it with the last', async () => {
    const store = new Store();
    const ids = batchIds(5);
    const opened = await store.apply(ids.map((id) => accepted(id, { batchId: BATCH })));
    expect(opened.map((w) => w.op)).toEqual(['put']);
    expect(store.open().map(openMessageIds)).toEqual([ids]);

    expect((await store.apply(ids.slice(0, 3).map(delivered))).map((w) => w.op)).toEqual(['put']);
    expect(store.open().map(openMessageIds)).toEqual([ids.slice(3)]);
    expect((await store.apply(ids.slice(3).map(delivered))).map((w) => w.op)).toEqual(['delete']);
    expect(store.open()).toEqual([]);
  });

  it('writes nothing for a window whose messages all end before the commit', async () => {
    const store = new Store();
    const ids = batchIds(3);
    const writes = await store.apply([
      ...ids.map((id) => accepted(id, { batchId: BATCH })),
      ...ids.map(delivered),
    ]);
    expect(writes).toEqual([]);
  });

  it('adds to a window committed earlier, and lists a single send alone', async () => {
    const store = new Store();
    const ids = batchIds(4);
    await store.apply(ids.slice(0, 2).map((id) => accepted(id, { batchId: BATCH })));
    await store.apply([
      ...ids.slice(2).map((id) => accepted(id, { batchId: BATCH })),
      accepted('msg_single'),
    ]);
    expect(store.open().map(openMessageIds)).toEqual([ids, ['msg_single']]);
    await store.apply([delivered('msg_single')]);
    expect(store.open().map(openMessageIds)).toEqual([ids]);
  });

  it('deletes an entry written before windows (one message, by its id) when its message ends', async () => {
    const before = new Store();
    await before.apply([accepted('msg_old')]);
    before.docs.set(`${OPEN_MESSAGES}/msg_old`, { messageId: 'msg_old', validUntil: VALID_UNTIL });
    const writes = await new Store(before.docs).apply([delivered('msg_old')]);
    expect(writes.map((w) => `${w.op} ${w.id}`)).toEqual(['delete msg_old']);
  });
});
