import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import type { Environment } from '../../messaging/ports/carrier.port';
import type { MessageQueuedData } from '../../messaging/domain/message.events';
import { campaignOfMessage } from '../../messaging/domain/campaign-message-ids';
import { capturesIn } from '../../wallet/domain/settlements';
import type { WalletEvent } from '../../wallet/domain/wallet.events';
import {
  CampaignCounts,
  CampaignMessageStatus,
  CampaignTally,
  emptyCounts,
  moveMessage,
} from '../domain/campaign-counts';
import {
  CAMPAIGN_EVENT_TYPES,
  CAMPAIGN_STREAM_PREFIX,
  CampaignAudience,
  CampaignCreatedData,
  CampaignEvent,
  Skipped,
} from '../domain/campaign.events';

/** One document per campaign: what was accepted, how far it got, and its counts (listed per wallet, newest first). */
export const CAMPAIGNS = 'campaigns';
/** Campaigns with work left (messages to write, or a cancel to finish): the campaign worker's list. */
export const CAMPAIGN_WORK = 'campaign-work';
export const WORK_PARTITION = 'open';
export const CAMPAIGNS_PROJECTION = 'campaigns';

export interface CampaignDoc extends CampaignCounts {
  readonly id: string;
  readonly walletId: string;
  readonly accountId: string;
  readonly environment: Environment;
  readonly name: string;
  readonly senderId: string;
  readonly type: string;
  readonly message: string;
  readonly templateId: string | null;
  readonly audience: CampaignAudience;
  readonly sendAt: string | null;
  readonly recipients: number;
  readonly skipped: Skipped;
  readonly credits: number;
  readonly chunks: number;
  readonly listStream: string;
  readonly retryOf: string | null;
  readonly createdAt: string;
  messagesQueued: number;
  expandedAt: string | null;
  canceledAt: string | null;
  cancelFinishedAt: string | null;
  /** When the last of its messages became final. */
  completedAt: string | null;
  /** Each message's status and carrier by its place (base64 as stored; decoded when first changed). */
  tally: CampaignTally | string;
}

export const campaignSort = (createdAt: string, id: string) => `${createdAt}|${id}`;

/** The message events that move a campaign message's status, and the status they move it to. */
const STATUS_OF: Readonly<Record<string, CampaignMessageStatus>> = {
  MessageQueued: 'QUEUED',
  MessageScheduled: 'SCHEDULED',
  MessageDue: 'QUEUED',
  MessageCanceled: 'CANCELED',
  MessageSent: 'SENT',
  MessageDelivered: 'DELIVERED',
  MessageFailed: 'FAILED',
  MessageExpired: 'EXPIRED',
  // Never accepted (a crash between a chunk's reservations and its messages): it failed.
  MessageRejected: 'FAILED',
};

/** A campaign's document as its creation makes it: nothing counted yet. */
export function createdDoc(d: CampaignCreatedData): CampaignDoc {
  return {
    id: d.campaignId,
    walletId: d.walletId,
    accountId: d.accountId,
    environment: d.environment,
    name: d.name,
    senderId: d.senderId,
    type: d.type,
    message: d.message,
    templateId: d.templateId,
    audience: d.audience,
    sendAt: d.sendAt,
    recipients: d.recipients,
    skipped: d.skipped,
    credits: d.credits,
    chunks: d.chunks,
    listStream: d.listStream,
    retryOf: d.retryOf,
    createdAt: d.createdAt,
    messagesQueued: 0,
    expandedAt: null,
    canceledAt: null,
    cancelFinishedAt: null,
    completedAt: null,
    ...emptyCounts(),
    tally: CampaignTally.empty(d.recipients),
  };
}

/**
 * The campaigns read model. It sees every message event and every capture, but a message not of a
 * campaign costs a look at its id's length (campaignOfMessage), and a campaign's messages change its
 * one document in memory: the document is put again, not copied, so a batch of a campaign's events
 * is one document write at the next commit, however many messages moved. The documents changed in
 * place are the projection's own, held by the runner between commits and dropped when it resumes
 * from its checkpoint; a store reads them back as plain JSON, the tally as base64.
 */
export const campaignsProjection: Projection = {
  name: CAMPAIGNS_PROJECTION,
  collections: [CAMPAIGNS, CAMPAIGN_WORK],
  filter: {
    streamPrefixes: [CAMPAIGN_STREAM_PREFIX, 'message-', 'wallet-'],
    eventTypes: [
      ...CAMPAIGN_EVENT_TYPES,
      ...Object.keys(STATUS_OF),
      'ReservationCaptured',
      'ReservationsSettled',
    ],
  },
  async apply(recorded: RecordedEvent, view: ProjectionView) {
    if (recorded.streamId.startsWith(CAMPAIGN_STREAM_PREFIX)) return applyCampaignEvent(recorded, view);
    if (recorded.streamId.startsWith('wallet-')) return addCampaignSpending(recorded, view);
    const ref = campaignOfMessage(recorded.streamId.slice('message-'.length));
    if (!ref) return;
    const doc = await campaignDoc(view, ref.campaignId);
    if (!doc) return;
    const carrier =
      recorded.type === 'MessageQueued' || recorded.type === 'MessageScheduled'
        ? (recorded.data as MessageQueuedData).carrier
        : undefined;
    const tally = doc.tally as CampaignTally;
    if (!moveMessage(doc, tally, ref.place, STATUS_OF[recorded.type], carrier)) return;
    if (doc.completedAt === null && doc.final === doc.recipients)
      doc.completedAt = recorded.recordedAt.toISOString();
    putDoc(view, doc);
  },
};

/** The credits a wallet event captured for campaigns' messages, added to each one's spending. */
async function addCampaignSpending(recorded: RecordedEvent, view: ProjectionView): Promise<void> {
  let campaignId: string | null = null;
  let doc: CampaignDoc | null = null;
  for (const { messageId, sms } of capturesIn(recorded as unknown as WalletEvent)) {
    const ref = campaignOfMessage(messageId);
    if (!ref) continue;
    // A settlement batch's captures are mostly one campaign's: its document is looked up once.
    if (ref.campaignId !== campaignId) {
      if (doc) putDoc(view, doc);
      campaignId = ref.campaignId;
      doc = await campaignDoc(view, campaignId);
    }
    if (doc) doc.creditsSpent += sms;
  }
  if (doc) putDoc(view, doc);
}

/** The campaign's document, its tally ready to change (decoded once from what the store holds). */
async function campaignDoc(view: ProjectionView, campaignId: string): Promise<CampaignDoc | null> {
  const doc = await view.get<CampaignDoc>(CAMPAIGNS, campaignId);
  if (doc && typeof doc.tally === 'string') doc.tally = CampaignTally.fromBase64(doc.tally);
  return doc;
}

const putDoc = (view: ProjectionView, doc: CampaignDoc) =>
  view.put(CAMPAIGNS, doc.id, doc, { partition: doc.walletId, sort: campaignSort(doc.createdAt, doc.id) });

function work(view: ProjectionView, doc: CampaignDoc, open: boolean): void {
  if (open)
    view.put(
      CAMPAIGN_WORK,
      doc.id,
      { id: doc.id },
      { partition: WORK_PARTITION, sort: campaignSort(doc.createdAt, doc.id) },
    );
  else view.delete(CAMPAIGN_WORK, doc.id);
}

async function applyCampaignEvent(recorded: RecordedEvent, view: ProjectionView): Promise<void> {
  const event = recorded as unknown as RecordedEvent & CampaignEvent;
  const campaignId = recorded.streamId.slice(CAMPAIGN_STREAM_PREFIX.length);
  if (event.type === 'CampaignCreated') {
    if (await view.get(CAMPAIGNS, campaignId)) return;
    const doc = createdDoc(event.data);
    putDoc(view, doc);
    work(view, doc, true);
    return;
  }
  const doc = await campaignDoc(view, campaignId);
  if (!doc) return;
  switch (event.type) {
    case 'CampaignChunkQueued':
      doc.messagesQueued += event.data.messages;
      break;
    case 'CampaignExpanded':
      doc.expandedAt = event.data.at;
      work(view, doc, doc.canceledAt !== null && doc.cancelFinishedAt === null);
      break;
    case 'CampaignCanceled':
      doc.canceledAt = event.data.at;
      work(view, doc, true);
      break;
    case 'CampaignCancelFinished':
      doc.cancelFinishedAt = event.data.at;
      work(view, doc, false);
      break;
    default:
      return; // CampaignTaken: who holds the work is the stream's business
  }
  putDoc(view, doc);
}
