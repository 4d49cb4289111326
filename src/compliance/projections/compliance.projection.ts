import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import {
  INBOUND_STREAM_PREFIX,
  InboundMessageReceived,
  NUMBER_STREAM_PREFIX,
  NumberAssigned,
  OPT_OUT_EVENT_TYPES,
  OPT_OUT_STREAM_PREFIX,
  OptOutEvent,
  OptOutSource,
  SENDER_ID_EVENT_TYPES,
  SENDER_ID_STREAM_PREFIX,
  SenderIdEvent,
} from '../domain/compliance.events';
import type { SenderIdStatus } from '../domain/sender-id.decider';

export const COMPLIANCE_PROJECTION = 'compliance';
/** Sender IDs by `${accountId}|${senderId}`, listed per account (oldest request first). */
export const SENDER_IDS = 'sender-ids';
/** The same, listed per status for the operator (`sender-ids:list --status pending`). */
export const SENDER_IDS_BY_STATUS = 'sender-ids-by-status';
/** Assigned numbers by number, all in one partition. */
export const NUMBERS = 'numbers';
export const NUMBERS_PARTITION = 'all';
/** Inbound messages by id, listed per wallet newest first; unassigned numbers' in their own partition. */
export const INBOUND_MESSAGES = 'inbound-messages';
export const UNASSIGNED_PARTITION = 'unassigned';
/** Opted-out recipients by `${walletId}|${number}`, listed per wallet; opting back in deletes. */
export const OPT_OUTS = 'opt-outs';

export interface SenderIdDoc {
  readonly accountId: string;
  readonly senderId: string;
  readonly sampleMessage: string;
  readonly status: SenderIdStatus;
  readonly reason: string | null;
  readonly requestedAt: string;
  readonly decidedAt: string | null;
}

export interface ApiSenderId {
  readonly object: 'sender_id';
  readonly sender_id: string;
  readonly status: SenderIdStatus;
  readonly reason: string | null;
  readonly sample_message: string;
  readonly created_at: string;
  readonly decided_at: string | null;
}

export const toApiSenderId = (doc: SenderIdDoc): ApiSenderId => ({
  object: 'sender_id',
  sender_id: doc.senderId,
  status: doc.status,
  reason: doc.reason,
  sample_message: doc.sampleMessage,
  created_at: doc.requestedAt,
  decided_at: doc.decidedAt,
});

export type NumberDoc = NumberAssigned['data'];

export interface ApiNumber {
  readonly object: 'number';
  readonly number: string;
  readonly account_id: string;
  readonly email: string | null;
  readonly assigned_at: string;
}

export const toApiNumber = (data: NumberDoc, email: string | null): ApiNumber => ({
  object: 'number',
  number: data.number,
  account_id: data.accountId,
  email,
  assigned_at: data.assignedAt,
});

export interface InboundDoc {
  readonly data: InboundMessageReceived['data'];
  readonly sort: string;
}

export interface ApiInboundMessage {
  readonly object: 'inbound_message';
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly message: string;
  readonly environment: 'TEST' | 'LIVE';
  readonly received_at: string;
}

export const toApiInbound = (data: InboundMessageReceived['data']): ApiInboundMessage => ({
  object: 'inbound_message',
  id: data.inboundId,
  from: data.from,
  to: data.to,
  message: data.message,
  environment: data.environment,
  received_at: data.receivedAt,
});

export interface OptOutDoc {
  readonly walletId: string;
  readonly phoneNumber: string;
  readonly source: OptOutSource;
  readonly createdAt: string;
  readonly sort: string;
}

export interface ApiOptOut {
  readonly object: 'opt_out';
  readonly phone_number: string;
  readonly source: OptOutSource;
  readonly created_at: string;
}

export const toApiOptOut = (doc: OptOutDoc): ApiOptOut => ({
  object: 'opt_out',
  phone_number: doc.phoneNumber,
  source: doc.source,
  created_at: doc.createdAt,
});

export const senderIdKey = (accountId: string, senderId: string) => `${accountId}|${senderId}`;
/** Oldest request first, within an account (SENDER_IDS)… */
export const senderIdSort = (doc: SenderIdDoc) => `${doc.requestedAt}|${doc.senderId}`;
/** …and within a status, across accounts (SENDER_IDS_BY_STATUS). */
export const senderIdByStatusSort = (doc: SenderIdDoc) => `${senderIdSort(doc)}|${doc.accountId}`;
export const optOutKey = (walletId: string, phoneNumber: string) => `${walletId}|${phoneNumber}`;
/** Newest first within a partition: the time, then the id for equal times. */
export const inboundSort = (data: InboundMessageReceived['data']) => `${data.receivedAt}|${data.inboundId}`;

/** The compliance read models: sender IDs, numbers, inbound messages and opt-out lists. */
export const complianceProjection: Projection = {
  name: COMPLIANCE_PROJECTION,
  collections: [SENDER_IDS, SENDER_IDS_BY_STATUS, NUMBERS, INBOUND_MESSAGES, OPT_OUTS],
  filter: {
    streamPrefixes: [
      SENDER_ID_STREAM_PREFIX,
      NUMBER_STREAM_PREFIX,
      INBOUND_STREAM_PREFIX,
      OPT_OUT_STREAM_PREFIX,
    ],
    eventTypes: [
      ...SENDER_ID_EVENT_TYPES,
      'NumberAssigned',
      'InboundMessageReceived',
      ...OPT_OUT_EVENT_TYPES,
    ],
  },
  async apply(recorded: RecordedEvent, view: ProjectionView) {
    if (recorded.streamId.startsWith(SENDER_ID_STREAM_PREFIX)) return applySenderId(recorded, view);
    if (recorded.type === 'NumberAssigned') {
      const data = recorded.data as NumberDoc;
      view.put(NUMBERS, data.number, data, { partition: NUMBERS_PARTITION, sort: data.number });
      return;
    }
    if (recorded.type === 'InboundMessageReceived') {
      const data = (recorded as unknown as InboundMessageReceived).data;
      const sort = inboundSort(data);
      view.put(INBOUND_MESSAGES, data.inboundId, { data, sort } satisfies InboundDoc, {
        partition: data.walletId ?? UNASSIGNED_PARTITION,
        sort,
      });
      return;
    }
    if (recorded.streamId.startsWith(OPT_OUT_STREAM_PREFIX)) applyOptOut(recorded, view);
  },
};

async function applySenderId(recorded: RecordedEvent, view: ProjectionView): Promise<void> {
  const event = recorded as unknown as SenderIdEvent;
  const key = senderIdKey(event.data.accountId, event.data.senderId);
  const known = await view.get<SenderIdDoc>(SENDER_IDS, key);
  let doc: SenderIdDoc | null;
  switch (event.type) {
    case 'SenderIdRequested':
      doc = {
        accountId: event.data.accountId,
        senderId: event.data.senderId,
        sampleMessage: event.data.sampleMessage,
        status: 'pending',
        reason: null,
        requestedAt: event.data.requestedAt,
        decidedAt: null,
      };
      break;
    case 'SenderIdApproved':
      doc = known && { ...known, status: 'approved', reason: null, decidedAt: event.data.approvedAt };
      break;
    case 'SenderIdRejected':
      doc = known && {
        ...known,
        status: 'rejected',
        reason: event.data.reason,
        decidedAt: event.data.rejectedAt,
      };
      break;
    default:
      return;
  }
  if (!doc) return;
  view.put(SENDER_IDS, key, doc, { partition: doc.accountId, sort: senderIdSort(doc) });
  view.put(SENDER_IDS_BY_STATUS, key, doc, { partition: doc.status, sort: senderIdByStatusSort(doc) });
}

function applyOptOut(recorded: RecordedEvent, view: ProjectionView): void {
  const event = recorded as unknown as OptOutEvent;
  const key = optOutKey(event.data.walletId, event.data.phoneNumber);
  if (event.type === 'RecipientOptedIn') return view.delete(OPT_OUTS, key);
  const sort = `${event.data.at}|${event.data.phoneNumber}`;
  const doc: OptOutDoc = {
    walletId: event.data.walletId,
    phoneNumber: event.data.phoneNumber,
    source: event.data.source,
    createdAt: event.data.at,
    sort,
  };
  view.put(OPT_OUTS, key, doc, { partition: event.data.walletId, sort });
}
