import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import { BatchView } from '../../shared/projections/batch-view';
import type { ReadStore } from '../../shared/read-store/read-store.port';
import { campaignMessageId } from '../../messaging/domain/campaign-message-ids';
import type { CampaignCreatedData } from '../domain/campaign.events';
import { CAMPAIGNS, CampaignDoc, campaignsProjection } from './campaigns.projection';

const campaignId = 'cmp_0000000000AAAAAAAAAAAA';
let position = 0n;
const event = (streamId: string, type: string, data: object): RecordedEvent => ({
  streamId,
  revision: 0n,
  position: ++position,
  type,
  data,
  metadata: {},
  recordedAt: new Date('2026-12-01T08:00:00Z'),
});
const created = (recipients: number) =>
  event(`campaign-${campaignId}`, 'CampaignCreated', {
    campaignId,
    walletId: 'wal_1',
    recipients,
    createdAt: '2026-12-01T08:00:00.000Z',
  } as Partial<CampaignCreatedData>);
const message = (place: number, type: string, data: object = {}) =>
  event(`message-${campaignMessageId(campaignId, place)}`, type, data);

/** Only what a batch reads back: the documents a previous commit stored, as JSON. */
function storeOf(docs: Map<string, unknown>): ReadStore {
  return { get: async (_c: string, id: string) => docs.get(id) ?? null } as unknown as ReadStore;
}

async function apply(view: BatchView, events: RecordedEvent[]) {
  for (const e of events) await campaignsProjection.apply(e, view);
}

describe('campaigns read model', () => {
  it('turns a batch of a campaign’s message events into one document write', async () => {
    const view = new BatchView(storeOf(new Map()));
    const events = [created(600)];
    for (let place = 0; place < 600; place++) {
      events.push(message(place, 'MessageQueued', { carrier: place % 2 ? 'MTN' : 'AT' }));
      events.push(message(place, 'MessageSent'));
      events.push(message(place, place % 3 ? 'MessageDelivered' : 'MessageFailed'));
    }
    events.push(
      event('wallet-wal_1', 'ReservationCaptured', { messageId: campaignMessageId(campaignId, 1), sms: 2 }),
      event('wallet-wal_1', 'ReservationsSettled', {
        captured: [
          { messageId: campaignMessageId(campaignId, 2), sms: 2 },
          { messageId: 'msg_not_of_a_campaign', sms: 5 },
          { messageId: campaignMessageId(campaignId, 4), sms: 2 },
        ],
        released: [{ messageId: campaignMessageId(campaignId, 3), sms: 2, reason: 'message failed' }],
      }),
    );
    await apply(view, events);
    const writes = view.writes().filter((w) => w.collection === CAMPAIGNS);
    expect(writes).toHaveLength(1);
    const doc = JSON.parse(JSON.stringify(writes[0].op === 'put' ? writes[0].doc : null)) as CampaignDoc;
    expect(doc.counts).toMatchObject({ QUEUED: 0, SENT: 0, DELIVERED: 400, FAILED: 200 });
    expect(doc.byCarrier).toEqual({
      AT: { delivered: 200, failed: 100, expired: 0, pending: 0 },
      MTN: { delivered: 200, failed: 100, expired: 0, pending: 0 },
    });
    expect({ final: doc.final, spent: doc.creditsSpent, completed: doc.completedAt }).toEqual({
      final: 600,
      spent: 6, // captured alone and among a ReservationsSettled's; never what it released
      completed: '2026-12-01T08:00:00.000Z',
    });
    expect(typeof doc.tally).toBe('string');
  });

  it('goes on from the document as stored (the tally as base64), and ignores other messages', async () => {
    const first = new BatchView(storeOf(new Map()));
    await apply(first, [
      created(2),
      message(0, 'MessageScheduled', { carrier: 'MTN' }),
      message(1, 'MessageScheduled', { carrier: 'MTN' }),
    ]);
    const stored = first.writes().find((w) => w.collection === CAMPAIGNS);
    const docs = new Map([
      [campaignId, JSON.parse(JSON.stringify(stored?.op === 'put' ? stored.doc : null))],
    ]);
    const next = new BatchView(storeOf(docs));
    await apply(next, [
      message(0, 'MessageCanceled'),
      message(1, 'MessageDue'),
      event('message-msg_0000000000000000000000', 'MessageDelivered', {}),
    ]);
    const doc = next.writes().find((w) => w.collection === CAMPAIGNS);
    expect(doc?.op === 'put' && (doc.doc as CampaignDoc).counts).toMatchObject({
      SCHEDULED: 0,
      QUEUED: 1,
      CANCELED: 1,
    });
    expect(next.writes()).toHaveLength(1);
  });
});
