import type { Actor } from '../../shared/actor';
import type { DomainEvent } from '../../shared/decider';
import type { Environment } from './wallet.events';

/**
 * A wallet's care: its low-balance alert and its auto top-up, in a stream of their own
 * (`wallet-care-<walletId>`) beside the wallet's, so the hot send path never reads or writes it.
 * Observations of the balance name the wallet revision they were made at: one older than the
 * newest recorded is stale (another process already acted on a later balance) and changes nothing.
 */
export const WALLET_CARE_STREAM_PREFIX = 'wallet-care-';
export const walletCareStream = (walletId: string) => `${WALLET_CARE_STREAM_PREFIX}${walletId}`;

interface Whose {
  readonly walletId: string;
  readonly accountId: string;
  readonly environment: Environment;
}

export type LowBalanceAlertSet = DomainEvent<
  'LowBalanceAlertSet',
  Whose & { threshold: number | null; at: string; actor?: Actor }
>;
/** sms_left fell to or below the threshold: one webhook event, one mail, the console's banner. */
export type LowBalanceAlerted = DomainEvent<
  'LowBalanceAlerted',
  Whose & { smsLeft: number; threshold: number; walletRevision: string; at: string }
>;
/** sms_left rose above the threshold again: the next fall alerts again. */
export type LowBalanceAlertRearmed = DomainEvent<
  'LowBalanceAlertRearmed',
  Whose & { smsLeft: number; threshold: number; walletRevision: string; at: string }
>;

export type AutoTopUpSet = DomainEvent<
  'AutoTopUpSet',
  Whose & { enabled: boolean; threshold: number; packageId: string; at: string; actor?: Actor }
>;
/** sms_left fell to or below the threshold with auto top-up on: billing charges the saved card. */
export type AutoTopUpTriggered = DomainEvent<
  'AutoTopUpTriggered',
  Whose & {
    topUpId: string;
    packageId: string;
    smsLeft: number;
    threshold: number;
    walletRevision: string;
    at: string;
  }
>;
export type AutoTopUpSucceeded = DomainEvent<
  'AutoTopUpSucceeded',
  Whose & { topUpId: string; sms: number; at: string }
>;
export type AutoTopUpFailed = DomainEvent<
  'AutoTopUpFailed',
  Whose & {
    topUpId: string;
    packageId: string;
    reason: string;
    failuresInARow: number;
    disabled: boolean;
    at: string;
  }
>;

export type WalletCareEvent =
  | LowBalanceAlertSet
  | LowBalanceAlerted
  | LowBalanceAlertRearmed
  | AutoTopUpSet
  | AutoTopUpTriggered
  | AutoTopUpSucceeded
  | AutoTopUpFailed;

export const WALLET_CARE_EVENT_TYPES: readonly WalletCareEvent['type'][] = [
  'LowBalanceAlertSet',
  'LowBalanceAlerted',
  'LowBalanceAlertRearmed',
  'AutoTopUpSet',
  'AutoTopUpTriggered',
  'AutoTopUpSucceeded',
  'AutoTopUpFailed',
];
