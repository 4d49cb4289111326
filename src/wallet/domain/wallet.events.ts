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
/** A reservation spent: its message was delivered. */
export interface Capture {
  readonly messageId: string;
  readonly sms: number;
}
/** A reservation given back to sms_left, and why. */
export interface Release {
  readonly messageId: string;
  readonly sms: number;
  readonly reason: string;
}
export type ReservationCaptured = DomainEvent<'ReservationCaptured', Capture>;
export type ReservationReleased = DomainEvent<'ReservationReleased', Release>;
/**
 * Two or more reservations settled back to back in one append (foldSettlements): behind a campaign,
 * a settlement batch's captures are one event, not one per message. Each message is in one list,
 * once; settlements commute, so their order inside the event carries no meaning.
 */
export type ReservationsSettled = DomainEvent<
  'ReservationsSettled',
  { captured: readonly Capture[]; released: readonly Release[] }
>;

export type WalletEvent =
  | WalletOpened
  | CreditsAdded
  | CreditsReserved
  | ReservationCaptured
  | ReservationReleased
  | ReservationsSettled
  | CreditsHeld
  | HeldCreditsReleased;

export const WALLET_EVENT_TYPES: readonly WalletEvent['type'][] = [
  'WalletOpened',
  'CreditsAdded',
  'CreditsReserved',
  'ReservationCaptured',
  'ReservationReleased',
  'ReservationsSettled',
  'CreditsHeld',
  'HeldCreditsReleased',
];

export const walletStream = (walletId: string) => `wallet-${walletId}`;
