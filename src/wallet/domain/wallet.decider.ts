import { Decider } from '../../shared/decider';
import { DomainError } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import type { CreditSource, Environment, WalletEvent } from './wallet.events';

export interface Wallet {
  readonly walletId: string | null;
  readonly accountId: string | null;
  readonly environment: Environment | null;
  /** Credits added minus credits captured. */
  readonly balance: number;
  /** Open reservations by message id. */
  readonly reserved: ReadonlyMap<string, number>;
  readonly reservedTotal: number;
  readonly captured: number;
  /** Every source id credited so far: a checkout credits its wallet once, whatever repeats. */
  readonly sources: ReadonlySet<string>;
}

export const initialState = (): Wallet => ({
  walletId: null,
  accountId: null,
  environment: null,
  balance: 0,
  reserved: new Map(),
  reservedTotal: 0,
  captured: 0,
  sources: new Set(),
});

/** What can still be sent: balance minus open reservations. */
export const smsLeft = (w: Wallet): number => w.balance - w.reservedTotal;

/**
 * A wallet being folded or decided on: a copy whose reservations and sources are copied once, at
 * their first change, and then changed in place. A busy wallet holds thousands of open
 * reservations; copying them for every event made a batch of reservations cost its size squared.
 * Nothing outside the draft is ever changed, so folding stays pure to its callers.
 */
export class WalletDraft implements Wallet {
  walletId: string | null;
  accountId: string | null;
  environment: Environment | null;
  balance: number;
  reservedTotal: number;
  captured: number;
  private ownReserved = false;
  private ownSources = false;
  private reservedMap: ReadonlyMap<string, number>;
  private sourceSet: ReadonlySet<string>;

  constructor(w: Wallet) {
    this.walletId = w.walletId;
    this.accountId = w.accountId;
    this.environment = w.environment;
    this.balance = w.balance;
    this.reservedTotal = w.reservedTotal;
    this.captured = w.captured;
    this.reservedMap = w.reserved;
    this.sourceSet = w.sources;
  }

  get reserved(): ReadonlyMap<string, number> {
    return this.reservedMap;
  }

  get sources(): ReadonlySet<string> {
    return this.sourceSet;
  }

  /** Folds one event in, in place. Never refuses: history is history. */
  apply(e: WalletEvent): void {
    switch (e.type) {
      case 'WalletOpened':
        this.walletId = e.data.walletId;
        this.accountId = e.data.accountId;
        this.environment = e.data.environment;
        return;
      case 'CreditsAdded':
        this.balance += e.data.sms;
        this.mutableSources().add(e.data.sourceId);
        return;
      case 'CreditsReserved':
        this.mutableReserved().set(e.data.messageId, e.data.sms);
        this.reservedTotal += e.data.sms;
        return;
      case 'ReservationCaptured':
        this.settle(e.data.messageId, e.data.sms);
        this.balance -= e.data.sms;
        this.captured += e.data.sms;
        return;
      case 'ReservationReleased':
        this.settle(e.data.messageId, e.data.sms);
        return;
    }
  }

  /** A plain Wallet, detached from the draft (which may go on changing). */
  done(): Wallet {
    this.ownReserved = false;
    this.ownSources = false;
    return {
      walletId: this.walletId,
      accountId: this.accountId,
      environment: this.environment,
      balance: this.balance,
      reserved: this.reservedMap,
      reservedTotal: this.reservedTotal,
      captured: this.captured,
      sources: this.sourceSet,
    };
  }

  private settle(messageId: string, sms: number): void {
    this.mutableReserved().delete(messageId);
    this.reservedTotal -= sms;
  }

  private mutableReserved(): Map<string, number> {
    if (!this.ownReserved) {
      this.reservedMap = new Map(this.reservedMap);
      this.ownReserved = true;
    }
    return this.reservedMap as Map<string, number>;
  }

  private mutableSources(): Set<string> {
    if (!this.ownSources) {
      this.sourceSet = new Set(this.sourceSet);
      this.ownSources = true;
    }
    return this.sourceSet as Set<string>;
  }
}

/** `evolve` never refuses: history is history. It mutates nothing it was given. */
export function evolve(w: Wallet, e: WalletEvent): Wallet {
  return evolveAll(w, [e]);
}

/** Folds many events at the price of one copy. */
export function evolveAll(w: Wallet, events: Iterable<WalletEvent>): Wallet {
  const draft = new WalletDraft(w);
  for (const e of events) draft.apply(e);
  return draft.done();
}

export const walletDecider: Decider<Wallet, WalletEvent> = { initialState, evolve, evolveAll };

export class InsufficientCredit extends DomainError {
  constructor(
    readonly available: number,
    readonly requested: number,
    what = 'This message',
  ) {
    super(
      'insufficient_credit',
      'insufficient_credit',
      `${what} needs ${requested} credit${requested === 1 ? '' : 's'} but the wallet has ${available} left`,
    );
  }
}

const walletMissing = () => new DomainError('not_found', 'wallet_not_found', 'No such wallet');
const badAmount = (param: string) =>
  new DomainError(
    'invalid_request',
    'invalid_amount',
    `${param} must be a positive whole number of credits`,
    param,
  );

type Decision = Result<WalletEvent[], DomainError>;

export function open(
  w: Wallet,
  cmd: { walletId: string; accountId: string; environment: Environment; initialCredits: number; now: Date },
): Decision {
  if (w.walletId !== null) return ok([]); // already open: opening is idempotent
  const events: WalletEvent[] = [
    {
      type: 'WalletOpened',
      data: {
        walletId: cmd.walletId,
        accountId: cmd.accountId,
        environment: cmd.environment,
        openedAt: cmd.now.toISOString(),
      },
    },
  ];
  if (cmd.initialCredits > 0) {
    events.push({
      type: 'CreditsAdded',
      data: {
        sourceId: `${cmd.walletId}:opening`,
        source: 'test_grant',
        sms: cmd.initialCredits,
        reason: 'Free test credits on opening',
        addedAt: cmd.now.toISOString(),
      },
    });
  }
  return ok(events);
}

export function addCredits(
  w: Wallet,
  cmd: { sourceId: string; source: CreditSource; sms: number; reason: string; now: Date },
): Decision {
  if (w.walletId === null) return err(walletMissing());
  if (!Number.isSafeInteger(cmd.sms) || cmd.sms <= 0) return err(badAmount('sms'));
  if (w.sources.has(cmd.sourceId)) return ok([]); // this source already credited: never twice
  return ok([
    {
      type: 'CreditsAdded',
      data: {
        sourceId: cmd.sourceId,
        source: cmd.source,
        sms: cmd.sms,
        reason: cmd.reason,
        addedAt: cmd.now.toISOString(),
      },
    },
  ]);
}

export function reserve(
  w: Wallet,
  cmd: { messageId: string; sms: number; now: Date; instance?: string },
): Decision {
  if (w.walletId === null) return err(walletMissing());
  if (!Number.isSafeInteger(cmd.sms) || cmd.sms <= 0) return err(badAmount('sms'));
  if (w.reserved.has(cmd.messageId)) return ok([]); // already reserved for this message
  if (smsLeft(w) < cmd.sms) return err(new InsufficientCredit(smsLeft(w), cmd.sms));
  return ok([
    {
      type: 'CreditsReserved',
      data: {
        messageId: cmd.messageId,
        sms: cmd.sms,
        reservedAt: cmd.now.toISOString(),
        ...(cmd.instance ? { instance: cmd.instance } : {}),
      },
    },
  ]);
}

/**
 * Reserves a batch's messages in one decision: all of them or none. Each message already reserved
 * (the batch is being finished after an interruption) is skipped; the others must fit in
 * `sms_left` together, else the whole batch is refused and nothing is reserved.
 */
export function reserveAll(
  w: Wallet,
  cmd: { reservations: readonly { messageId: string; sms: number }[]; now: Date; instance?: string },
): Decision {
  if (w.walletId === null) return err(walletMissing());
  if (cmd.reservations.length === 0) return err(badAmount('reservations'));
  let needed = 0;
  const fresh = new Map<string, number>();
  for (const { messageId, sms } of cmd.reservations) {
    if (!Number.isSafeInteger(sms) || sms <= 0) return err(badAmount('sms'));
    if (w.reserved.has(messageId) || fresh.has(messageId)) continue;
    needed += sms;
    fresh.set(messageId, sms);
  }
  if (smsLeft(w) < needed) return err(new InsufficientCredit(smsLeft(w), needed, 'This batch'));
  const reservedAt = cmd.now.toISOString();
  const instance = cmd.instance ? { instance: cmd.instance } : {};
  return ok(
    [...fresh].map(([messageId, sms]) => ({
      type: 'CreditsReserved' as const,
      data: { messageId, sms, reservedAt, ...instance },
    })),
  );
}

/** Settles a reservation as spent. Unknown or already settled: nothing happens, never a double count. */
export function capture(w: Wallet, cmd: { messageId: string }): Decision {
  const sms = w.reserved.get(cmd.messageId);
  if (sms === undefined) return ok([]);
  return ok([{ type: 'ReservationCaptured', data: { messageId: cmd.messageId, sms } }]);
}

/** Gives a reservation back to `sms_left`. Unknown or already settled: nothing happens. */
export function release(w: Wallet, cmd: { messageId: string; reason: string }): Decision {
  const sms = w.reserved.get(cmd.messageId);
  if (sms === undefined) return ok([]);
  return ok([{ type: 'ReservationReleased', data: { messageId: cmd.messageId, sms, reason: cmd.reason } }]);
}

/** Snapshots keep loading a wallet independent of its history length. */
export const walletSnapshots = {
  every: 500,
  encode: (w: Wallet) => ({ ...w, reserved: [...w.reserved], sources: [...w.sources] }),
  decode: (data: unknown): Wallet => {
    const raw = data as Omit<Wallet, 'reserved' | 'sources'> & {
      reserved: [string, number][];
      sources: string[];
    };
    return { ...raw, reserved: new Map(raw.reserved), sources: new Set(raw.sources) };
  },
};
