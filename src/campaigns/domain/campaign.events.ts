import type { DomainEvent } from '../../shared/decider';
import type { Encoding, Environment } from '../../messaging/ports/carrier.port';
import type { MessageType } from '../../messaging/domain/message-input';

export const CAMPAIGN_STREAM_PREFIX = 'campaign-';
/** Stream of one campaign: its creation, who expands it (the lease), its progress, its cancel. */
export const campaignStream = (campaignId: string) => `${CAMPAIGN_STREAM_PREFIX}${campaignId}`;
/**
 * The campaign's recipients as listed when it was accepted, in chunks of CHUNK_SIZE: what its
 * messages are written from. Named per attempt (`list`): a request that died while listing leaves
 * a list nobody names, and the same campaign run again under its Idempotency-Key lists afresh.
 */
export const recipientsStream = (campaignId: string, list: string) =>
  `campaign-recipients-${campaignId}-${list}`;

/** Recipients per chunk of the list, and messages per write when they are expanded. */
export const CHUNK_SIZE = 1000;
/** API.md: a campaign reaches up to 100,000 recipients. */
export const MAX_RECIPIENTS = 100_000;

/** Why a member of the audience gets no message (API.md's `skipped`, plus `unsendable`). */
export interface Skipped {
  /** A promotional campaign's member on the opt-out list. */
  readonly opted_out: number;
  /** A member lacking a placeholder's value that has no fallback. */
  readonly missing_field: number;
  /** Extra times a number was reached (through a second group, or also as a single contact). */
  readonly duplicate: number;
  /**
   * A member whose message the send path would refuse: a number no route or connected carrier
   * reaches, or a personalised text over 10 segments (or empty).
   */
  readonly unsendable: number;
}

export const NO_SKIPS: Skipped = { opted_out: 0, missing_field: 0, duplicate: 0, unsendable: 0 };

/**
 * One recipient as listed: number, the contact's name (for the report), the personalised text and
 * what the send path derived from it. Arrays, not objects: 100,000 of them are stored.
 */
export type RecipientRow = readonly [
  to: string,
  name: string | null,
  text: string,
  carrier: string,
  encoding: Encoding,
  segments: number,
];

export interface CampaignAudience {
  readonly groups: readonly string[];
  readonly contacts: readonly string[];
}

export type CampaignCreatedData = {
  readonly campaignId: string;
  readonly walletId: string;
  readonly accountId: string;
  readonly environment: Environment;
  readonly name: string;
  readonly senderId: string;
  readonly type: MessageType;
  /** The message as written (placeholders and all): the campaign's own, or its template's. */
  readonly message: string;
  readonly templateId: string | null;
  readonly audience: CampaignAudience;
  readonly sendAt: string | null;
  readonly recipients: number;
  readonly skipped: Skipped;
  /** Held at once for every recipient's message (API.md's credits_reserved). */
  readonly credits: number;
  readonly chunks: number;
  readonly listStream: string;
  readonly idempotencyKey: string | null;
  /** The campaign this one retries (its FAILED and EXPIRED recipients), if any. */
  readonly retryOf: string | null;
  readonly createdAt: string;
  /** The process that accepted it expands it first, until `leaseUntil`. */
  readonly instance: string;
  readonly leaseUntil: string;
};

export type CampaignCreated = DomainEvent<'CampaignCreated', CampaignCreatedData>;
/** A process takes (or takes over) the campaign's expansion, or the end of its cancel. */
export type CampaignTaken = DomainEvent<
  'CampaignTaken',
  { instance: string; leaseUntil: string; at: string }
>;
/** A chunk of the list written as messages (reserved from the hold) by the holder named, the lease renewed. */
export type CampaignChunkQueued = DomainEvent<
  'CampaignChunkQueued',
  { chunk: number; messages: number; instance: string; leaseUntil: string; at: string }
>;
/** Every recipient has its message. */
export type CampaignExpanded = DomainEvent<'CampaignExpanded', { at: string }>;
/**
 * The merchant canceled it before its send_at: expansion stops, its SCHEDULED messages are
 * canceled by the process named (a lease, as for the expansion), what is left held goes back.
 */
export type CampaignCanceled = DomainEvent<
  'CampaignCanceled',
  { instance: string; leaseUntil: string; at: string }
>;
/** Every SCHEDULED message of a canceled campaign was canceled and its hold released. */
export type CampaignCancelFinished = DomainEvent<'CampaignCancelFinished', { at: string }>;

export type CampaignEvent =
  | CampaignCreated
  | CampaignTaken
  | CampaignChunkQueued
  | CampaignExpanded
  | CampaignCanceled
  | CampaignCancelFinished;

export const CAMPAIGN_EVENT_TYPES: readonly CampaignEvent['type'][] = [
  'CampaignCreated',
  'CampaignTaken',
  'CampaignChunkQueued',
  'CampaignExpanded',
  'CampaignCanceled',
  'CampaignCancelFinished',
];

/** A chunk of the recipient list, on its own stream: `rows` recipients as CSV text (recipient-list.ts). */
export type CampaignRecipientsListed = DomainEvent<
  'CampaignRecipientsListed',
  { chunk: number; rows: number; csv: string }
>;
