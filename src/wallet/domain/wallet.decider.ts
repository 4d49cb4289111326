import { Decider } from '../../shared/decider';
import { DomainError } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import { ReservationEditor, ReservationMap, type Reservations } from './reservation-map';
import type { Capture, CreditSource, Environment, WalletEvent } from './wallet.events';

export interface Wallet {
  readonly walletId: string | null;
  readonly accountId: string | null;
  readonly environment: Environment | null;
  /** Credits added minus credits captured. */
  readonly balance: number;
  /** Open reservations by message id. */
  readonly reserved: Reservations;
  readonly reservedTotal: number;
  readonly captured: number;
  /** Every source id credited so far: a checkout credits its wallet once, whatever repeats. */
  readonly sources: ReadonlySet<string>;
  /** Open holds (a campaign's credits not yet taken by its messages) by hold id: what is left of each. */
  readonly holds: ReadonlyMap<string, number>;
  readonly heldTotal: number;
  /** Every hold ever made, open or not: a hold is made once, whatever repeats. */
  readonly holdIds: ReadonlySet<string>;
}

export const initialState = (): Wallet => ({
  walletId: null,
  accountId: null,
  environment: null,
  balance: 0,
  reserved: ReservationMap.EMPTY,
  reservedTotal: 0,
  captured: 0,
  sources: new Set(),
  holds: new Map(),
  heldTotal: 0,
  holdIds: new Set(),
});

/** What can still be sent: balance minus open reservations and holds. */
export const smsLeft = (w: Wallet): number => w.balance - w.reservedTotal - w.heldTotal;

/**
 * A wallet being folded or decided on: a copy whose sources and holds are copied once, at their
 * first change, and then changed in place, and whose reservations are edited copying only the
 * parts an edit touches (ReservationMap). A busy wallet holds thousands of open reservations (a
 * campaign, 100,000): copying them for every decision made settling them cost their number
 * squared. Nothing outside the draft is ever changed, so folding stays pure to its callers.
 */
export class WalletDraft implements Wallet {
  walletId: string | null;
  accountId: string | null;
  environment: Environment | null;
  balance: number;
  reservedTotal: number;
  captured: number;
  heldTotal: number;
  private ownSources = false;
  private ownHolds = false;
  private readonly reservations: ReservationEditor;
  private sourceSet: ReadonlySet<string>;
  private holdMap: ReadonlyMap<string, number>;
  private holdIdSet: ReadonlySet<string>;

  constructor(w: Wallet) {
    this.walletId = w.walletId;
    this.accountId = w.accountId;
    this.environment = w.environment;
    this.balance = w.balance;
    this.reservedTotal = w.reservedTotal;
    this.captured = w.captured;
    const reserved = w.reserved instanceof ReservationMap ? w.reserved : ReservationMap.from(w.reserved);
    this.reservations = reserved.edit();
    this.sourceSet = w.sources;
    this.heldTotal = w.heldTotal;
    this.holdMap = w.holds;
    this.holdIdSet = w.holdIds;
  }

  get reserved(): Reservations {
    return this.reservations;
  }

  get sources(): ReadonlySet<string> {
    return this.sourceSet;
  }

  get holds(): ReadonlyMap<string, number> {
    return this.holdMap;
  }

  get holdIds(): ReadonlySet<string> {
    return this.holdIdSet;
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
        this.reservations.set(e.data.messageId, e.data.sms);
        this.reservedTotal += e.data.sms;
        if (e.data.holdId !== undefined) this.takeFromHold(e.data.holdId, e.data.sms);
        return;
      case 'CreditsHeld':
        this.mutableHolds().holds.set(e.data.holdId, e.data.sms);
        this.mutableHolds().ids.add(e.data.holdId);
        this.heldTotal += e.data.sms;
        return;
      case 'HeldCreditsReleased':
        this.takeFromHold(e.data.holdId, e.data.sms);
        return;
      case 'ReservationCaptured':
        this.capture(e.data);
        return;
      case 'ReservationReleased':
        this.settle(e.data);
        return;
      case 'ReservationsSettled':
        for (const c of e.data.captured) this.capture(c);
        for (const r of e.data.released) this.settle(r);
        return;
    }
  }

  /** A plain Wallet, detached from the draft (which may go on changing). */
  done(): Wallet {
    this.ownSources = false;
    this.ownHolds = false;
    return {
      walletId: this.walletId,
      accountId: this.accountId,
      environment: this.environment,
      balance: this.balance,
      reserved: this.reservations.done(),
      reservedTotal: this.reservedTotal,
      captured: this.captured,
      sources: this.sourceSet,
      holds: this.holdMap,
      heldTotal: this.heldTotal,
      holdIds: this.holdIdSet,
    };
  }

  /** A hold gives `sms` to a reservation or back to sms_left; an emptied hold is closed. */
  private takeFromHold(holdId: string, sms: number): void {
    const left = this.holdMap.get(holdId) ?? 0;
    const taken = Math.min(left, sms);
    const { holds } = this.mutableHolds();
    if (left - taken > 0) holds.set(holdId, left - taken);
    else holds.delete(holdId);
    this.heldTotal -= taken;
  }

  private capture(c: Capture): void {
    this.settle(c);
    this.balance -= c.sms;
    this.captured += c.sms;
  }

  private settle({ messageId, sms }: Capture): void {
    this.reservations.delete(messageId);
    this.reservedTotal -= sms;
  }

  private mutableHolds(): { holds: Map<string, number>; ids: Set<string> } {
    if (!this.ownHolds) {
      this.holdMap = new Map(this.holdMap);
      this.holdIdSet = new Set(this.holdIdSet);
      this.ownHolds = true;
    }
    return { holds: this.holdMap as Map<string, number>, ids: this.holdIdSet as Set<string> };
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
  const fresh = freshReservations(w, cmd.reservations);
  if (!fresh.ok) return fresh;
  const { needed } = fresh.value;
  if (smsLeft(w) < needed) return err(new InsufficientCredit(smsLeft(w), needed, 'This batch'));
  return ok(reservedEvents(fresh.value.messages, cmd));
}

/**
 * The reservations not made yet (a message named twice counts once; one reserved before, by an
 * interrupted run of the same batch or chunk, is skipped) and what they need together.
 */
function freshReservations(
  w: Wallet,
  reservations: readonly { messageId: string; sms: number }[],
): Result<{ messages: Map<string, number>; needed: number }, DomainError> {
  let needed = 0;
  const messages = new Map<string, number>();
  for (const { messageId, sms } of reservations) {
    if (!Number.isSafeInteger(sms) || sms <= 0) return err(badAmount('sms'));
    if (w.reserved.has(messageId) || messages.has(messageId)) continue;
    needed += sms;
    messages.set(messageId, sms);
  }
  return ok({ messages, needed });
}

function reservedEvents(
  messages: ReadonlyMap<string, number>,
  cmd: { now: Date; instance?: string; holdId?: string },
): WalletEvent[] {
  const reservedAt = cmd.now.toISOString();
  const extra = {
    ...(cmd.instance ? { instance: cmd.instance } : {}),
    ...(cmd.holdId ? { holdId: cmd.holdId } : {}),
  };
  return [...messages].map(([messageId, sms]) => ({
    type: 'CreditsReserved' as const,
    data: { messageId, sms, reservedAt, ...extra },
  }));
}

/**
 * Holds a campaign's credits in one decision (API.md: all at once, or 402 and nothing). A hold is
 * made once: asked again (a retried request, a resumed one) it records nothing, even once used up.
 */
export function hold(
  w: Wallet,
  cmd: { holdId: string; sms: number; now: Date; instance?: string },
): Decision {
  if (w.walletId === null) return err(walletMissing());
  if (!Number.isSafeInteger(cmd.sms) || cmd.sms <= 0) return err(badAmount('sms'));
  if (w.holdIds.has(cmd.holdId)) return ok([]);
  if (smsLeft(w) < cmd.sms) return err(new InsufficientCredit(smsLeft(w), cmd.sms, 'This campaign'));
  return ok([
    {
      type: 'CreditsHeld',
      data: {
        holdId: cmd.holdId,
        sms: cmd.sms,
        heldAt: cmd.now.toISOString(),
        ...(cmd.instance ? { instance: cmd.instance } : {}),
      },
    },
  ]);
}

const holdProblem = (code: string, message: string) => new DomainError('conflict', code, message);

/**
 * Reserves messages of a campaign from its hold, all of them or none: sms_left does not change,
 * the hold shrinks. A message already reserved is skipped (a chunk written again after an
 * interruption); the others must fit in what is left of the hold.
 */
export function reserveFromHold(
  w: Wallet,
  cmd: {
    holdId: string;
    reservations: readonly { messageId: string; sms: number }[];
    now: Date;
    instance?: string;
  },
): Decision {
  if (w.walletId === null) return err(walletMissing());
  const fresh = freshReservations(w, cmd.reservations);
  if (!fresh.ok) return fresh;
  const { messages, needed } = fresh.value;
  if (messages.size === 0) return ok([]);
  const left = w.holds.get(cmd.holdId) ?? 0;
  if (left < needed) {
    return err(
      w.holdIds.has(cmd.holdId) && left === 0
        ? holdProblem('hold_closed', `The hold ${cmd.holdId} was used up or released`)
        : holdProblem('hold_exceeded', `The hold ${cmd.holdId} has ${left} credits left, not ${needed}`),
    );
  }
  return ok(reservedEvents(messages, cmd));
}

/** Gives what is left of a hold back to sms_left. Unknown or already empty: nothing happens. */
export function releaseHold(w: Wallet, cmd: { holdId: string; reason: string }): Decision {
  const sms = w.holds.get(cmd.holdId);
  if (sms === undefined) return ok([]);
  return ok([{ type: 'HeldCreditsReleased', data: { holdId: cmd.holdId, sms, reason: cmd.reason } }]);
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

const SNAPSHOT_EVERY = 500;

/**
 * Snapshots keep loading a wallet independent of its history length. A snapshot costs the size of
 * the state (its open reservations), so it is taken no more often than that many events: a
 * campaign holding 100,000 reservations open would otherwise write a snapshot of all of them every
 * 500 events. Folding after a snapshot then costs no more than decoding one.
 */
export const walletSnapshots = {
  every: SNAPSHOT_EVERY,
  interval: (w: Wallet): number => {
    let events = SNAPSHOT_EVERY;
    while (events < w.reserved.size) events *= 2;
    return events;
  },
  encode: (w: Wallet) => ({
    ...w,
    reserved: [...w.reserved],
    sources: [...w.sources],
    holds: [...w.holds],
    holdIds: [...w.holdIds],
  }),
  decode: (data: unknown): Wallet => {
    const raw = data as Omit<Wallet, 'reserved' | 'sources' | 'holds' | 'holdIds' | 'heldTotal'> & {
      reserved: [string, number][];
      sources: string[];
      // Absent from snapshots taken before holds existed.
      holds?: [string, number][];
      holdIds?: string[];
      heldTotal?: number;
    };
    return {
      ...raw,
      reserved: ReservationMap.from(raw.reserved),
      sources: new Set(raw.sources),
      holds: new Map(raw.holds ?? []),
      heldTotal: raw.heldTotal ?? 0,
      holdIds: new Set(raw.holdIds ?? []),
    };
  },
};
