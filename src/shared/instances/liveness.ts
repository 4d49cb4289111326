import type { InstanceRecord } from './instance-registry.port';

export interface LivenessView {
  readonly now: Date;
  /** An instance whose last heartbeat is older than this is dead. */
  readonly deadAfterMs: number;
  /** This process's host key (InstanceRecord.host), null when it has none. */
  readonly host: string | null;
  /** Whether a pid runs on this host: asked only of instances with this host's key. */
  readonly running: (pid: number) => boolean;
}

/**
 * Whether a recorded instance is dead: it stopped cleanly, its heartbeat is older than the
 * limit, or it ran in this process table and its pid is gone (a restarted process finds its
 * predecessor dead at start-up without waiting for the heartbeat to age). An instance with no
 * record is never called dead: its work waits for the fixed lease or grace instead.
 */
export function isDead(record: InstanceRecord, view: LivenessView): boolean {
  if (record.stoppedAt !== null) return true;
  if (view.now.getTime() - Date.parse(record.beatAt) > view.deadAfterMs) return true;
  return record.host !== null && record.host === view.host && !view.running(record.pid);
}

export function deadInstances(records: readonly InstanceRecord[], view: LivenessView): Set<string> {
  return new Set(records.filter((r) => isDead(r, view)).map((r) => r.id));
}
