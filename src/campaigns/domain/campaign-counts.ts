/**
 * A campaign's counts by message status and by carrier, kept from its messages' events. Each
 * message's current status and carrier is one byte of a tally (low 4 bits: status, high 4 bits:
 * carrier), so a status change moves exactly one count whatever the message's history, and
 * 100,000 messages cost 100 KB: the read model stores the tally in the campaign's one document
 * (base64), and a batch of events changes it in place and writes that document once.
 */
export const CAMPAIGN_MESSAGE_STATUSES = [
  'SCHEDULED',
  'QUEUED',
  'SENT',
  'DELIVERED',
  'FAILED',
  'EXPIRED',
  'CANCELED',
] as const;
export type CampaignMessageStatus = (typeof CAMPAIGN_MESSAGE_STATUSES)[number];

export type StatusCounts = Record<CampaignMessageStatus, number>;

export interface CarrierCounts {
  delivered: number;
  failed: number;
  expired: number;
  /** Not final yet: SCHEDULED, QUEUED or SENT. */
  pending: number;
}

export interface CampaignCounts {
  readonly counts: StatusCounts;
  /** Carrier names by the index the tally holds. */
  readonly carriers: string[];
  readonly byCarrier: Record<string, CarrierCounts>;
  /** Messages in a final status (DELIVERED, FAILED, EXPIRED or CANCELED). */
  final: number;
  creditsSpent: number;
}

/** Carrier index for a message whose carrier is not known (never written, rejected): counted by status only. */
const NO_CARRIER = 15;
const MAX_CARRIERS = 15;

const RANK: Record<CampaignMessageStatus, number> = {
  SCHEDULED: 1,
  QUEUED: 2,
  SENT: 3,
  DELIVERED: 4,
  FAILED: 4,
  EXPIRED: 4,
  CANCELED: 4,
};

export const isFinalStatus = (status: CampaignMessageStatus) => RANK[status] === 4;

export const emptyCounts = (): CampaignCounts => ({
  counts: Object.fromEntries(CAMPAIGN_MESSAGE_STATUSES.map((s) => [s, 0])) as StatusCounts,
  carriers: [],
  byCarrier: {},
  final: 0,
  creditsSpent: 0,
});

/** One byte per message of the campaign, by its place in the list. */
export class CampaignTally {
  constructor(readonly bytes: Uint8Array) {}

  static empty(size: number): CampaignTally {
    return new CampaignTally(new Uint8Array(size));
  }

  static fromBase64(text: string): CampaignTally {
    return new CampaignTally(new Uint8Array(Buffer.from(text, 'base64')));
  }

  get size(): number {
    return this.bytes.length;
  }

  status(place: number): CampaignMessageStatus | null {
    const code = (this.bytes[place] ?? 0) & 0x0f;
    return code === 0 ? null : CAMPAIGN_MESSAGE_STATUSES[code - 1];
  }

  /** The places of the messages in one of `statuses` (retry: the FAILED and EXPIRED ones). */
  *placesIn(statuses: ReadonlySet<CampaignMessageStatus>): Generator<number> {
    for (let place = 0; place < this.bytes.length; place++) {
      const status = this.status(place);
      if (status !== null && statuses.has(status)) yield place;
    }
  }

  /** Stored as base64 text (JSON.stringify calls this): 4 characters per 3 messages. */
  toJSON(): string {
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength).toString('base64');
  }

  carrierIndex(place: number): number {
    return (this.bytes[place] ?? 0) >> 4;
  }

  set(place: number, status: CampaignMessageStatus, carrierIndex: number): void {
    this.bytes[place] = (carrierIndex << 4) | (CAMPAIGN_MESSAGE_STATUSES.indexOf(status) + 1);
  }
}

function carrierBucket(counts: CampaignCounts, index: number): CarrierCounts | null {
  const name = counts.carriers[index];
  if (name === undefined) return null;
  return (counts.byCarrier[name] ??= { delivered: 0, failed: 0, expired: 0, pending: 0 });
}

function bucketKey(status: CampaignMessageStatus): keyof CarrierCounts | null {
  if (status === 'DELIVERED') return 'delivered';
  if (status === 'FAILED') return 'failed';
  if (status === 'EXPIRED') return 'expired';
  if (status === 'CANCELED') return null; // final, but never left: not a delivery outcome
  return 'pending';
}

/**
 * Moves the message at `place` to `status` (its carrier named when it is first seen), in place.
 * Statuses only move forward (SCHEDULED → QUEUED → SENT → final; SCHEDULED → CANCELED), so an event
 * seen again or late changes nothing. Answers whether anything changed.
 */
export function moveMessage(
  counts: CampaignCounts,
  tally: CampaignTally,
  place: number,
  status: CampaignMessageStatus,
  carrier?: string,
): boolean {
  if (place < 0 || place >= tally.size) return false;
  const current = tally.status(place);
  if (current !== null && (isFinalStatus(current) || RANK[status] <= RANK[current])) return false;
  if (status === 'CANCELED' && current !== 'SCHEDULED') return false;
  let carrierIndex = current === null ? NO_CARRIER : tally.carrierIndex(place);
  if (current === null && carrier !== undefined) {
    let index = counts.carriers.indexOf(carrier);
    if (index < 0 && counts.carriers.length < MAX_CARRIERS) index = counts.carriers.push(carrier) - 1;
    if (index >= 0) carrierIndex = index;
  }
  const bucket = carrierBucket(counts, carrierIndex);
  if (current !== null) {
    counts.counts[current]--;
    const before = bucketKey(current);
    if (bucket && before) bucket[before]--;
  }
  counts.counts[status]++;
  const after = bucketKey(status);
  if (bucket && after) bucket[after]++;
  if (isFinalStatus(status)) counts.final++;
  tally.set(place, status, carrierIndex);
  return true;
}
