import type { MessageStatus } from '../domain/message.decider';
import type { WalletDayActivity } from '../projections/message-activity.projection';
import {
  ACTIVITY_BUCKETS,
  ActivityBucket,
  ActivityDay,
  CarrierDelivery,
  MessageActivityView,
} from './queries/message-activity.query';

const BUCKET_OF: Readonly<Record<MessageStatus, ActivityBucket>> = {
  DELIVERED: 'delivered',
  FAILED: 'failed',
  EXPIRED: 'expired',
  CANCELED: 'canceled',
  SCHEDULED: 'in_progress',
  QUEUED: 'in_progress',
  SENT: 'in_progress',
};

const zeros = (): Record<ActivityBucket, number> =>
  Object.fromEntries(ACTIVITY_BUCKETS.map((b) => [b, 0])) as Record<ActivityBucket, number>;

/** The overview's numbers for these days (oldest first) from their wallet-day documents. */
export function summarizeActivity(
  window: readonly string[],
  docs: readonly WalletDayActivity[],
): MessageActivityView {
  const byDay = new Map(docs.map((d) => [d.day, d]));
  const carriers = new Map<string, { delivered: number; outcomes: number }>();
  const days: ActivityDay[] = window.map((day) => {
    const doc = byDay.get(day);
    const messages = zeros();
    for (const [carrier, counts] of Object.entries(doc?.messages ?? {})) {
      const seen = carriers.get(carrier) ?? { delivered: 0, outcomes: 0 };
      for (const [status, count] of Object.entries(counts) as [MessageStatus, number][]) {
        messages[BUCKET_OF[status]] += count;
        if (status === 'DELIVERED') seen.delivered += count;
        if (status === 'DELIVERED' || status === 'FAILED' || status === 'EXPIRED') seen.outcomes += count;
      }
      carriers.set(carrier, seen);
    }
    return { day, messages, creditsSpent: doc?.creditsSpent ?? 0 };
  });
  const delivery: CarrierDelivery[] = [...carriers.entries()]
    .map(([carrier, { delivered, outcomes }]) => ({
      carrier,
      delivered,
      outcomes,
      rate: outcomes === 0 ? null : delivered / outcomes,
    }))
    .sort((a, b) => b.outcomes - a.outcomes || a.carrier.localeCompare(b.carrier));
  return { days, carriers: delivery };
}
