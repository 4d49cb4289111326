import type { Environment } from '../../messaging/ports/carrier.port';
import type { CarrierCounts, StatusCounts } from '../domain/campaign-counts';
import type { CampaignAudience, CampaignCreatedData, Skipped } from '../domain/campaign.events';
import { CampaignDoc, createdDoc } from '../projections/campaigns.projection';
import type { Sample } from './campaign-lists';

export type CampaignStatus = 'scheduled' | 'sending' | 'completed' | 'canceled';

/** API.md's campaign object. */
export interface ApiCampaign {
  readonly object: 'campaign';
  readonly id: string;
  readonly name: string;
  readonly status: CampaignStatus;
  readonly environment: Environment;
  readonly type: string;
  readonly sender_id: string;
  readonly message: string;
  readonly template_id: string | null;
  readonly audience: CampaignAudience;
  readonly send_at: string | null;
  readonly recipients: number;
  readonly skipped: Skipped;
  readonly credits_reserved: number;
  /** How many of its messages are in each status (every status, 0 included). */
  readonly counts: StatusCounts;
  readonly by_carrier: Readonly<Record<string, CarrierCounts>>;
  readonly credits_spent: number;
  readonly retry_of: string | null;
  readonly created_at: string;
  /** When every message was final (or the cancel finished); null until then. */
  readonly completed_at: string | null;
}

export interface ApiCampaignQuote {
  readonly object: 'campaign_quote';
  readonly recipients: number;
  readonly skipped: Skipped;
  /** Every recipient's segments together: one credit each. */
  readonly segments: number;
  readonly credits: number;
  readonly sms_left: number;
  readonly sendable: boolean;
  readonly samples: readonly Sample[];
}

type Progress = Pick<
  CampaignDoc,
  'canceledAt' | 'cancelFinishedAt' | 'completedAt' | 'expandedAt' | 'final' | 'recipients' | 'sendAt'
>;

/** Canceled once canceled; completed once every message is final; scheduled until send_at; else sending. */
export function campaignStatus(doc: Progress, now: Date): CampaignStatus {
  if (doc.canceledAt !== null) return 'canceled';
  if (doc.completedAt !== null || (doc.expandedAt !== null && doc.final >= doc.recipients))
    return 'completed';
  if (doc.sendAt !== null && Date.parse(doc.sendAt) > now.getTime()) return 'scheduled';
  return 'sending';
}

export function toApiCampaign(doc: Omit<CampaignDoc, 'tally'>, now: Date): ApiCampaign {
  return {
    object: 'campaign',
    id: doc.id,
    name: doc.name,
    status: campaignStatus(doc, now),
    environment: doc.environment,
    type: doc.type,
    sender_id: doc.senderId,
    message: doc.message,
    template_id: doc.templateId,
    audience: doc.audience,
    send_at: doc.sendAt,
    recipients: doc.recipients,
    skipped: doc.skipped,
    credits_reserved: doc.credits,
    counts: doc.counts,
    by_carrier: doc.byCarrier,
    credits_spent: doc.creditsSpent,
    retry_of: doc.retryOf,
    created_at: doc.createdAt,
    completed_at: doc.completedAt ?? doc.cancelFinishedAt,
  };
}

/** A campaign the read model does not list yet, as its creation recorded it (no message counted yet). */
export function createdView(d: CampaignCreatedData): Omit<CampaignDoc, 'tally'> {
  const { tally: _tally, ...doc } = createdDoc(d);
  return doc;
}
