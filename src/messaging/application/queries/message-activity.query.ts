import { Query } from '@nestjs/cqrs';

/** How the overview groups statuses: the three delivery outcomes, canceled, and not final yet. */
export const ACTIVITY_BUCKETS = ['delivered', 'failed', 'expired', 'canceled', 'in_progress'] as const;
export type ActivityBucket = (typeof ACTIVITY_BUCKETS)[number];

export interface ActivityDay {
  /** YYYY-MM-DD, GMT (Ghana time). */
  readonly day: string;
  /** Messages created this day, by where they are now. */
  readonly messages: Readonly<Record<ActivityBucket, number>>;
  readonly creditsSpent: number;
}

export interface CarrierDelivery {
  readonly carrier: string;
  readonly delivered: number;
  /** DELIVERED + FAILED + EXPIRED: messages with a delivery outcome (CANCELED ones never left). */
  readonly outcomes: number;
  /** delivered / outcomes, null before any outcome. */
  readonly rate: number | null;
}

export interface MessageActivityView {
  /** Every day of the window, oldest first, days without messages included (as zeros). */
  readonly days: readonly ActivityDay[];
  /** Carriers of the window's messages, most outcomes first. */
  readonly carriers: readonly CarrierDelivery[];
}

/** A wallet's messages per day by status, delivery per carrier and credits spent, over the last `days` days. */
export class MessageActivity extends Query<MessageActivityView> {
  constructor(
    readonly walletId: string,
    readonly days = 14,
  ) {
    super();
  }
}
