import type { Decider } from '../../shared/decider';
import { ok, Result } from '../../shared/result';

/**
 * Which dispatcher may submit which messages. Messages fall into a fixed number of partitions
 * by their id; a dispatcher submits only messages of partitions it holds a lease on, so two
 * processes never submit the same message, and no per-message claim needs recording. Every
 * holder renews its leases on one stream, at its exact revision, which also says it is alive.
 */
export const DISPATCH_LEASES_STREAM = 'dispatch-leases';

export type DispatchLeasesRenewedData = {
  readonly holder: string;
  /** The partitions the holder has from now until `until` (empty: it is alive and waiting for some). */
  readonly partitions: readonly number[];
  readonly until: string;
  readonly at: string;
};

export type DispatchLeaseEvent = {
  readonly type: 'DispatchLeasesRenewed';
  readonly data: DispatchLeasesRenewedData;
};

export interface Lease {
  readonly holder: string;
  readonly until: string;
}

export interface DispatchLeases {
  /** Each partition's last lease (it may have run out). */
  readonly partitions: ReadonlyMap<number, Lease>;
  /** Each holder's last renewal's end: a holder whose renewal has not run out is alive. */
  readonly holders: ReadonlyMap<string, string>;
}

export const initialState = (): DispatchLeases => ({ partitions: new Map(), holders: new Map() });

/** Holders silent this long past their last lease's end are forgotten, so the state stays small. */
const FORGET_HOLDER_AFTER_MS = 60 * 60 * 1000;

export function evolve(state: DispatchLeases, event: DispatchLeaseEvent): DispatchLeases {
  if (event.type !== 'DispatchLeasesRenewed') return state;
  const { holder, partitions, until, at } = event.data;
  const next = new Map(state.partitions);
  for (const [partition, lease] of state.partitions) if (lease.holder === holder) next.delete(partition);
  for (const partition of partitions) next.set(partition, { holder, until });
  const holders = new Map(state.holders);
  holders.set(holder, until);
  const forgetBefore = Date.parse(at) - FORGET_HOLDER_AFTER_MS;
  for (const [known, end] of holders) if (Date.parse(end) < forgetBefore) holders.delete(known);
  return { partitions: next, holders };
}

export const dispatchLeasesDecider: Decider<DispatchLeases, DispatchLeaseEvent> = { initialState, evolve };

export interface RenewLeases {
  readonly holder: string;
  readonly partitionCount: number;
  readonly leaseMs: number;
  readonly now: Date;
  /** Partitions this holder is still submitting messages of: kept even beyond its share. */
  readonly busy: ReadonlySet<number>;
  /**
   * Holders known dead (their instance's heartbeat stopped): their partitions are free now,
   * whatever their leases say. A holder not named here is alive until its lease runs out.
   */
  readonly dead?: ReadonlySet<string>;
}

/**
 * A holder's renewal: it keeps its partitions up to its fair share of them (all partitions over
 * the holders alive, itself included), takes free or run-out ones up to that share, and lets the
 * rest go for the others to take at their next renewal. The partitions of a holder known dead
 * are free at once. Never refused: a renewal that gets nothing still says the holder is alive,
 * so the others make room for it.
 */
export function renew(state: DispatchLeases, cmd: RenewLeases): Result<DispatchLeaseEvent[], never> {
  const now = cmd.now.getTime();
  const alive = (until: string) => Date.parse(until) > now;
  const dead = cmd.dead ?? new Set<string>();
  const live = new Set(
    [...state.holders].filter(([holder, until]) => alive(until) && !dead.has(holder)).map(([holder]) => holder),
  );
  live.add(cmd.holder);
  const share = Math.ceil(cmd.partitionCount / live.size);
  const mine: number[] = [];
  const free: number[] = [];
  for (let partition = 0; partition < cmd.partitionCount; partition++) {
    const lease = state.partitions.get(partition);
    if (lease?.holder === cmd.holder) mine.push(partition);
    else if (!lease || !alive(lease.until) || !live.has(lease.holder)) free.push(partition);
  }
  const kept = mine.filter((p, i) => i < share || cmd.busy.has(p));
  const taken = free.slice(0, Math.max(0, share - kept.length));
  const until = new Date(now + cmd.leaseMs).toISOString();
  return ok([
    {
      type: 'DispatchLeasesRenewed',
      data: {
        holder: cmd.holder,
        partitions: [...kept, ...taken].sort((a, b) => a - b),
        until,
        at: cmd.now.toISOString(),
      },
    },
  ]);
}

/** A holder stopping: it gives every partition back at once, so another takes them at its next renewal. */
export function release(
  state: DispatchLeases,
  cmd: { holder: string; now: Date },
): Result<DispatchLeaseEvent[], never> {
  const held = [...state.partitions.values()].some((lease) => lease.holder === cmd.holder);
  if (!held) return ok([]);
  const at = cmd.now.toISOString();
  return ok([{ type: 'DispatchLeasesRenewed', data: { holder: cmd.holder, partitions: [], until: at, at } }]);
}

/** The partition of a message: a hash of its id (FNV-1a), so every process agrees without asking. */
export function partitionOf(messageId: string, partitionCount: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < messageId.length; i++) {
    hash ^= messageId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitionCount;
}

/** The lease stream is renewed every few seconds forever: snapshots keep loading it short. */
export const dispatchLeasesSnapshots = {
  every: 500,
  encode: (state: DispatchLeases) => ({ partitions: [...state.partitions], holders: [...state.holders] }),
  decode: (data: unknown): DispatchLeases => {
    const raw = data as { partitions: [number, Lease][]; holders: [string, string][] };
    return { partitions: new Map(raw.partitions), holders: new Map(raw.holders) };
  },
};
