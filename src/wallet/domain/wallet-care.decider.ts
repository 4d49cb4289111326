import type { Actor } from '../../shared/actor';
import type { Decider } from '../../shared/decider';
import { DomainError, invalid } from '../../shared/domain-error';
import { err, ok, type Result } from '../../shared/result';
import type { WalletCareEvent } from './wallet-care.events';
import type { Environment } from './wallet.events';

/** Auto top-ups one wallet may start in one UTC day (API.md). */
export const AUTO_TOPUPS_PER_DAY = 3;
/** Failed auto top-ups in a row that turn it off. */
export const AUTO_TOPUP_FAILURES_TO_DISABLE = 3;

export interface WalletCare {
  readonly whose: {
    readonly walletId: string;
    readonly accountId: string;
    readonly environment: Environment;
  } | null;
  /** The low-balance threshold, or null for no alert. */
  readonly lowBalance: number | null;
  /** True while sms_left is (as last observed) at or below the threshold and the alert went out. */
  readonly alerted: boolean;
  readonly autoTopUp: {
    readonly enabled: boolean;
    readonly threshold: number;
    readonly packageId: string;
  } | null;
  /** The top-up being charged now, if any: at most one per wallet. */
  readonly inFlight: string | null;
  readonly topUpsToday: { readonly day: string; readonly count: number };
  readonly failuresInARow: number;
  readonly lastFailure: string | null;
  /** The newest wallet revision an observation was recorded at: older ones are stale. */
  readonly observedRevision: bigint;
}

export const initialState = (): WalletCare => ({
  whose: null,
  lowBalance: null,
  alerted: false,
  autoTopUp: null,
  inFlight: null,
  topUpsToday: { day: '', count: 0 },
  failuresInARow: 0,
  lastFailure: null,
  observedRevision: -1n,
});

const whoseOf = (d: { walletId: string; accountId: string; environment: Environment }) => ({
  walletId: d.walletId,
  accountId: d.accountId,
  environment: d.environment,
});
const dayOf = (iso: string) => iso.slice(0, 10);

export function evolve(c: WalletCare, e: WalletCareEvent): WalletCare {
  const whose = whoseOf(e.data);
  switch (e.type) {
    case 'LowBalanceAlertSet':
      // A new threshold starts armed: the balance is checked against it afresh.
      return { ...c, whose, lowBalance: e.data.threshold, alerted: false };
    case 'LowBalanceAlerted':
      return {
        ...c,
        whose,
        alerted: true,
        observedRevision: max(c.observedRevision, BigInt(e.data.walletRevision)),
      };
    case 'LowBalanceAlertRearmed':
      return {
        ...c,
        whose,
        alerted: false,
        observedRevision: max(c.observedRevision, BigInt(e.data.walletRevision)),
      };
    case 'AutoTopUpSet':
      return {
        ...c,
        whose,
        autoTopUp: { enabled: e.data.enabled, threshold: e.data.threshold, packageId: e.data.packageId },
        // Turning it on again starts the count of failures afresh.
        failuresInARow: e.data.enabled ? 0 : c.failuresInARow,
      };
    case 'AutoTopUpTriggered': {
      const day = dayOf(e.data.at);
      const count = c.topUpsToday.day === day ? c.topUpsToday.count + 1 : 1;
      return {
        ...c,
        whose,
        inFlight: e.data.topUpId,
        topUpsToday: { day, count },
        observedRevision: max(c.observedRevision, BigInt(e.data.walletRevision)),
      };
    }
    case 'AutoTopUpSucceeded':
      return { ...c, whose, inFlight: c.inFlight === e.data.topUpId ? null : c.inFlight, failuresInARow: 0 };
    case 'AutoTopUpFailed':
      return {
        ...c,
        whose,
        inFlight: c.inFlight === e.data.topUpId ? null : c.inFlight,
        failuresInARow: e.data.failuresInARow,
        lastFailure: e.data.reason,
        autoTopUp: e.data.disabled && c.autoTopUp ? { ...c.autoTopUp, enabled: false } : c.autoTopUp,
      };
  }
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);

export const walletCareDecider: Decider<WalletCare, WalletCareEvent> = { initialState, evolve };

type Decision = Result<WalletCareEvent[], DomainError>;
type Whose = { walletId: string; accountId: string; environment: Environment };

const positiveCredits = (value: number | null, param: string, min: number) =>
  value !== null && (!Number.isSafeInteger(value) || value < min)
    ? invalid('invalid_threshold', `${param} must be a whole number of credits, at least ${min}`, param)
    : null;

/** PUT /v1/wallet/alerts: the threshold (credits, at least 1) or null for no alert. */
export function setLowBalanceAlert(
  c: WalletCare,
  cmd: Whose & { threshold: number | null; actor?: Actor; now: Date },
): Decision {
  const refusal = positiveCredits(cmd.threshold, 'low_balance', 1);
  if (refusal) return err(refusal);
  if (c.whose && c.lowBalance === cmd.threshold) return ok([]);
  const { now, ...data } = cmd;
  return ok([
    {
      type: 'LowBalanceAlertSet',
      data: {
        ...whoseOf(data),
        threshold: data.threshold,
        at: now.toISOString(),
        ...(data.actor ? { actor: data.actor } : {}),
      },
    },
  ]);
}

/**
 * PUT /v1/wallet/auto_topup. Whether a card is saved and the package exists are billing's questions,
 * answered before this is decided.
 */
export function setAutoTopUp(
  c: WalletCare,
  cmd: Whose & { enabled: boolean; threshold: number; packageId: string; actor?: Actor; now: Date },
): Decision {
  const refusal = positiveCredits(cmd.threshold, 'threshold', 0);
  if (refusal) return err(refusal);
  const same = c.autoTopUp;
  if (
    same &&
    same.enabled === cmd.enabled &&
    same.threshold === cmd.threshold &&
    same.packageId === cmd.packageId
  ) {
    return ok([]);
  }
  return ok([
    {
      type: 'AutoTopUpSet',
      data: {
        ...whoseOf(cmd),
        enabled: cmd.enabled,
        threshold: cmd.threshold,
        packageId: cmd.packageId,
        at: cmd.now.toISOString(),
        ...(cmd.actor ? { actor: cmd.actor } : {}),
      },
    },
  ]);
}

/**
 * What the balance watcher saw: sms_left after the wallet's event at `walletRevision`. Falling to
 * or below the alert's threshold alerts once; rising above it arms the alert again. Falling to or
 * below the auto top-up's threshold starts one top-up (`topUpId`), unless one is in flight or the
 * day's three have been started. An observation older than one already recorded changes nothing,
 * so the same balance seen again, by this process or another, decides nothing twice.
 */
export function observeBalance(
  c: WalletCare,
  cmd: { smsLeft: number; walletRevision: bigint; topUpId: string; now: Date },
): Decision {
  if (!c.whose || cmd.walletRevision < c.observedRevision) return ok([]);
  const at = cmd.now.toISOString();
  const base = { ...c.whose, smsLeft: cmd.smsLeft, walletRevision: cmd.walletRevision.toString(), at };
  const events: WalletCareEvent[] = [];
  if (c.lowBalance !== null) {
    const low = cmd.smsLeft <= c.lowBalance;
    if (low && !c.alerted)
      events.push({ type: 'LowBalanceAlerted', data: { ...base, threshold: c.lowBalance } });
    if (!low && c.alerted)
      events.push({ type: 'LowBalanceAlertRearmed', data: { ...base, threshold: c.lowBalance } });
  }
  const topUp = c.autoTopUp;
  if (topUp?.enabled && cmd.smsLeft <= topUp.threshold && c.inFlight === null) {
    const today = dayOf(at);
    const startedToday = c.topUpsToday.day === today ? c.topUpsToday.count : 0;
    if (startedToday < AUTO_TOPUPS_PER_DAY) {
      events.push({
        type: 'AutoTopUpTriggered',
        data: { ...base, topUpId: cmd.topUpId, packageId: topUp.packageId, threshold: topUp.threshold },
      });
    }
  }
  return ok(events);
}

/** Billing's word on the top-up in flight: credited, or failed (3 in a row turn auto top-up off). */
export function recordTopUpOutcome(
  c: WalletCare,
  cmd: {
    topUpId: string;
    outcome: { succeeded: true; sms: number } | { succeeded: false; reason: string };
    now: Date;
  },
): Decision {
  if (!c.whose)
    return err(new DomainError('not_found', 'resource_missing', 'No auto top-up for this wallet'));
  if (c.inFlight !== cmd.topUpId) return ok([]); // recorded already (or never started here)
  const at = cmd.now.toISOString();
  if (cmd.outcome.succeeded) {
    return ok([
      { type: 'AutoTopUpSucceeded', data: { ...c.whose, topUpId: cmd.topUpId, sms: cmd.outcome.sms, at } },
    ]);
  }
  const failuresInARow = c.failuresInARow + 1;
  return ok([
    {
      type: 'AutoTopUpFailed',
      data: {
        ...c.whose,
        topUpId: cmd.topUpId,
        packageId: c.autoTopUp?.packageId ?? '',
        reason: cmd.outcome.reason,
        failuresInARow,
        disabled: failuresInARow >= AUTO_TOPUP_FAILURES_TO_DISABLE,
        at,
      },
    },
  ]);
}
