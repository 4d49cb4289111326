import type { Actor } from '../../shared/actor';
import type { DomainEvent } from '../../shared/decider';

/**
 * The facts carriers require of LIVE traffic (API.md, Compliance): sender IDs registered per
 * account, numbers that receive replies assigned to accounts, the replies themselves, and the
 * recipients who opted out of an account's promotional messages.
 */
export type Environment = 'TEST' | 'LIVE';

// ---- A sender ID of an account: stream sender-id-<accountId>-<senderId, URL-encoded> --------

export const SENDER_ID_STREAM_PREFIX = 'sender-id-';
export const senderIdStream = (accountId: string, senderId: string) =>
  `${SENDER_ID_STREAM_PREFIX}${accountId}-${encodeURIComponent(senderId)}`;

export type SenderIdRequested = DomainEvent<
  'SenderIdRequested',
  { accountId: string; senderId: string; sampleMessage: string; requestedAt: string; actor?: Actor }
>;
export type SenderIdApproved = DomainEvent<
  'SenderIdApproved',
  { accountId: string; senderId: string; approvedAt: string }
>;
export type SenderIdRejected = DomainEvent<
  'SenderIdRejected',
  { accountId: string; senderId: string; reason: string; rejectedAt: string }
>;
export type SenderIdEvent = SenderIdRequested | SenderIdApproved | SenderIdRejected;
export const SENDER_ID_EVENT_TYPES: readonly SenderIdEvent['type'][] = [
  'SenderIdRequested',
  'SenderIdApproved',
  'SenderIdRejected',
];

// ---- A number that receives messages (long number or short code): stream number-<number> ----

export const NUMBER_STREAM_PREFIX = 'number-';
export const numberStream = (number: string) => `${NUMBER_STREAM_PREFIX}${number}`;

/** Assigned (or moved) to an account; its wallets are named so an inbound needs no other look-up. */
export type NumberAssigned = DomainEvent<
  'NumberAssigned',
  { number: string; accountId: string; wallets: Record<Environment, string>; assignedAt: string }
>;

// ---- One inbound (mobile-originated) message: stream inbound-<id> ---------------------------

export const INBOUND_STREAM_PREFIX = 'inbound-';
export const inboundStream = (inboundId: string) => `${INBOUND_STREAM_PREFIX}${inboundId}`;

/** accountId and walletId are null when the number is assigned to nobody: kept for the operator. */
export type InboundMessageReceived = DomainEvent<
  'InboundMessageReceived',
  {
    inboundId: string;
    /** E.164, a short code, or (fromKind text) whatever else the carrier wrote. */
    from: string;
    /** Absent on messages recorded before senders were read by their TON (issue 28). */
    fromKind?: 'number' | 'short_code' | 'text';
    to: string;
    message: string;
    environment: Environment;
    accountId: string | null;
    walletId: string | null;
    /** The carrier connection it came through; null for a TEST simulation. */
    carrier: string | null;
    receivedAt: string;
  }
>;

// ---- One recipient on one wallet's opt-out list: stream opt-out-<walletId>-<number> ---------

export const OPT_OUT_STREAM_PREFIX = 'opt-out-';
export const optOutStream = (walletId: string, phoneNumber: string) =>
  `${OPT_OUT_STREAM_PREFIX}${walletId}-${phoneNumber}`;

export type OptOutSource = 'inbound' | 'api' | 'console';

interface OptOutChange {
  walletId: string;
  phoneNumber: string;
  source: OptOutSource;
  /** The inbound message that asked for it, with its log position (what makes replays idempotent). */
  inbound: { id: string; position: string } | null;
  at: string;
}
export type RecipientOptedOut = DomainEvent<'RecipientOptedOut', OptOutChange>;
export type RecipientOptedIn = DomainEvent<'RecipientOptedIn', OptOutChange>;
export type OptOutEvent = RecipientOptedOut | RecipientOptedIn;
export const OPT_OUT_EVENT_TYPES: readonly OptOutEvent['type'][] = ['RecipientOptedOut', 'RecipientOptedIn'];
