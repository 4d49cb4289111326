import type { DomainEvent } from '../../shared/decider';

export type Environment = 'TEST' | 'LIVE';

/** Why credits arrived: auditors read this vocabulary. */
export type CreditSource = 'test_grant' | 'purchase' | 'operator_grant';

export type WalletOpened = DomainEvent<
  'WalletOpened',
  { walletId: string; accountId: string; environment: Environment; openedAt: string }
>;
export type CreditsAdded = DomainEvent<
  'CreditsAdded',
  { sourceId: string; source: CreditSource; sms: number; reason: string; addedAt: string }
>;
export type CreditsReserved = DomainEvent<
  'CreditsReserved',
  {
    messageId: string;
    sms: number;
    reservedAt: string;
    /**
     * The server instance whose send reserved (absent before instances were recorded): if it
     * dies before the message is queued, the reservation is released at once, not after a grace.
     */
    instance?: string;
    /**
     * Taken from this hold (a campaign's credits, held at once by CreditsHeld): the hold shrinks by
     * `sms` as the reservation opens, so sms_left does not change. Absent for an ordinary send.
     */
    holdId?: string;
  }
>;
/**
 * A campaign's credits, all of them in one decision (API.md: all at once, or 402 and nothing). Its
 * messages' reservations are then taken from the hold as they are written (CreditsReserved with
 * `holdId`); what is left of it when the campaign stops is released (HeldCreditsReleased).
 */
export type CreditsHeld = DomainEvent<
  'CreditsHeld',
  { holdId: string; sms: number; heldAt: string; instance?: string }
>;
export type HeldCreditsReleased = DomainEvent<
  'HeldCreditsReleased',
  { holdId: string; sms: number; reason: string }
>;
export type ReservationCaptured = DomainEvent<'ReservationCaptured', { messageId: string; sms: number }>;
export type ReservationReleased = DomainEvent<
  'ReservationReleased',
  { messageId: string; sms: number; reason: string }
>;

export type WalletEvent =
  | WalletOpened
  | CreditsAdded
  | CreditsReserved
  | ReservationCaptured
  | ReservationReleased
  | CreditsHeld
  | HeldCreditsReleased;

export const WALLET_EVENT_TYPES: readonly WalletEvent['type'][] = [
  'WalletOpened',
  'CreditsAdded',
  'CreditsReserved',
  'ReservationCaptured',
  'ReservationReleased',
  'CreditsHeld',
  'HeldCreditsReleased',
];

export const walletStream = (walletId: string) => `wallet-${walletId}`;
