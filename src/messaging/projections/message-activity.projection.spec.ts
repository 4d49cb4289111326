import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import { BatchView } from '../../shared/projections/batch-view';
import type { ReadStore } from '../../shared/read-store/read-store.port';
import { summarizeActivity } from '../application/message-activity-summary';
import { queuedData } from '../domain/message.test-support';
import {
  activityId,
  MESSAGE_ACTIVITY,
  RETIRED_ACTIVITY_OPEN,
  WalletDayActivity,
} from './message-activity.projection';
import { MESSAGES, messagesProjection } from './messages.projection';
import { OPEN_MESSAGES } from './open-messages';

const empty = { get: async () => null } as unknown as ReadStore;
let position = 0n;
const revisions = new Map<string, bigint>();

function recorded(
  streamId: string,
  type: string,
  data: unknown,
  at = '2026-05-02T10:00:00.000Z',
): RecordedEvent {
  const revision = revisions.has(streamId) ? revisions.get(streamId)! + 1n : 0n;
  revisions.set(streamId, revision);
  position += 1n;
  return { streamId, revision, position, type, data, metadata: {}, recordedAt: new Date(at) };
}

const outcome = {
  errorCode: null,
  errorMessage: null,
  carrierStatus: 'DELIVRD',
  at: '2026-05-02T10:00:01.000Z',
};
const queue = (id: string, createdAt: string, extra: Record<string, unknown> = {}) =>
  recorded(`message-${id}`, 'MessageQueued', { ...queuedData, messageId: id, createdAt, ...extra });
const then = (id: string, type: string, data: unknown = outcome) => recorded(`message-${id}`, type, data);

async function project(events: RecordedEvent[]): Promise<BatchView> {
  const view = new BatchView(empty);
  for (const e of events) await messagesProjection.apply(e, view);
  return view;
}

const DAY1 = '2026-05-01T23:59:00.000Z';
const DAY2 = '2026-05-02T00:01:00.000Z';

/** Sends of every outcome over two days (GMT), a scheduled one canceled, and a sandbox try-out. */
const history = (): RecordedEvent[] => [
  queue('m1', DAY1),
  then('m1', 'MessageClaimed', { dispatcherId: 'd', leaseUntil: DAY2 }),
  then('m1', 'MessageSent', { carrierMessageIds: ['c1'], sentAt: DAY1 }),
  queue('m2', DAY1, { carrier: 'VODAFONE' }),
  then('m1', 'MessageDelivered'),
  then('m2', 'MessageFailed'),
  queue('m3', DAY2),
  then('m3', 'MessageSent', { carrierMessageIds: ['c3'], sentAt: DAY2 }),
  then('m3', 'MessageExpired'),
  recorded('message-m4', 'MessageScheduled', {
    ...queuedData,
    messageId: 'm4',
    createdAt: DAY2,
    sendAt: DAY2,
  }),
  then('m4', 'MessageCanceled', { at: DAY2 }),
  queue('m5', DAY2),
  then('m5', 'MessageSent', { carrierMessageIds: ['c5'], sentAt: DAY2 }),
  queue('sandbox', DAY2, { walletId: '' }),
  recorded('wallet-wal_1', 'ReservationCaptured', { messageId: 'm1', sms: 2 }, '2026-05-02T00:00:05.000Z'),
  recorded(
    'wallet-wal_1',
    'ReservationsSettled',
    {
      captured: [
        { messageId: 'm6', sms: 1 },
        { messageId: 'm7', sms: 3 },
      ],
      released: [{ messageId: 'm8', sms: 9, reason: 'message failed' }],
    },
    '2026-05-02T00:00:06.000Z',
  ),
];

describe('the overview counts the messages projection keeps', () => {
  it('counts each wallet message on the day it was created, under the status it has now, per carrier', async () => {
    const view = await project(history());
    expect(await view.get<WalletDayActivity>(MESSAGE_ACTIVITY, activityId('wal_1', '2026-05-01'))).toEqual({
      walletId: 'wal_1',
      day: '2026-05-01',
      messages: { MTN: { QUEUED: 0, SENT: 0, DELIVERED: 1 }, VODAFONE: { QUEUED: 0, FAILED: 1 } },
      creditsSpent: 0,
    });
    expect(await view.get<WalletDayActivity>(MESSAGE_ACTIVITY, activityId('wal_1', '2026-05-02'))).toEqual({
      walletId: 'wal_1',
      day: '2026-05-02',
      messages: { MTN: { QUEUED: 0, SENT: 1, EXPIRED: 1, SCHEDULED: 0, CANCELED: 1 } },
      creditsSpent: 6, // captured on day 2 (m1 although it was sent on day 1), alone or many at once
    });
    expect(await view.get(MESSAGE_ACTIVITY, activityId('', '2026-05-02'))).toBeNull();
  });

  it('keeps no work list of its own: each message is counted from its document', async () => {
    const view = await project(history());
    const collections = new Set(view.writes().map((w) => w.collection));
    expect([...collections].sort()).toEqual([MESSAGE_ACTIVITY, OPEN_MESSAGES, MESSAGES].sort());
    expect(collections).not.toContain(RETIRED_ACTIVITY_OPEN);
  });

  it('ignores an event it already applied (a revision at or below the one it holds)', async () => {
    const events = history();
    const view = await project(events);
    const sent = events.find((e) => e.streamId === 'message-m5' && e.type === 'MessageSent')!;
    await messagesProjection.apply(sent, view);
    const day2 = await view.get<WalletDayActivity>(MESSAGE_ACTIVITY, activityId('wal_1', '2026-05-02'));
    expect(day2?.messages.MTN.SENT).toBe(1);
  });

  it('sums to the overview: buckets per day, delivery rate per carrier, credits per day', async () => {
    const view = await project(history());
    const docs = (await Promise.all(
      ['2026-05-01', '2026-05-02'].map((d) =>
        view.get<WalletDayActivity>(MESSAGE_ACTIVITY, activityId('wal_1', d)),
      ),
    )) as WalletDayActivity[];
    const summary = summarizeActivity(['2026-04-30', '2026-05-01', '2026-05-02'], docs);
    expect(summary.days).toEqual([
      {
        day: '2026-04-30',
        messages: { delivered: 0, failed: 0, expired: 0, canceled: 0, in_progress: 0 },
        creditsSpent: 0,
      },
      {
        day: '2026-05-01',
        messages: { delivered: 1, failed: 1, expired: 0, canceled: 0, in_progress: 0 },
        creditsSpent: 0,
      },
      {
        day: '2026-05-02',
        messages: { delivered: 0, failed: 0, expired: 1, canceled: 1, in_progress: 1 },
        creditsSpent: 6,
      },
    ]);
    expect(summary.carriers).toEqual([
      { carrier: 'MTN', delivered: 1, outcomes: 2, rate: 0.5 },
      { carrier: 'VODAFONE', delivered: 0, outcomes: 1, rate: 0 },
    ]);
  });
});
