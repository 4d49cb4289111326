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
  }
>;
export type ReservationCaptured = DomainEvent<'ReservationCaptured', { messageId: string; sms: number }>;
export type ReservationReleased = DomainEvent<
  'ReservationReleased',
  { messageId: string; sms: number; reason: string }
>;

export type WalletEvent =
  WalletOpened | CreditsAdded | CreditsReserved | ReservationCaptured | ReservationReleased;

export const WALLET_EVENT_TYPES: readonly WalletEvent['type'][] = [
  'WalletOpened',
  'CreditsAdded',
  'CreditsReserved',
  'ReservationCaptured',
  'ReservationReleased',
];

export const walletStream = (walletId: string) => `wallet-${walletId}`;
