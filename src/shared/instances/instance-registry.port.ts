/**
 * Where the running processes say they are alive. Each server process records a heartbeat
 * under its instance id every HEARTBEAT_INTERVAL_MS; the others read them to find the instances
 * that died, so that the work those held (dispatch partitions, reservations of sends cut short)
 * is taken over at once instead of after a fixed lease or grace. Ephemeral state, not history:
 * it lives beside the read models (SQLite read.db, or MongoDB), never in the event log.
 */
export const INSTANCE_REGISTRY = Symbol('INSTANCE_REGISTRY');

export interface InstanceRecord {
  readonly id: string;
  /**
   * Which process table the instance's pid belongs to (the kernel's boot and pid namespace),
   * null where that cannot be told: a process on the same one knows at once whether the pid
   * still runs.
   */
  readonly host: string | null;
  readonly pid: number;
  readonly startedAt: string;
  /** The time of its last heartbeat (its own clock, ISO). */
  readonly beatAt: string;
  /** Set when it stopped cleanly, having handed its work back. */
  readonly stoppedAt: string | null;
}

export interface InstanceRegistry {
  /** Records (or refreshes) an instance's heartbeat. */
  beat(record: Omit<InstanceRecord, 'stoppedAt'>): Promise<void>;
  /** Records that the instance stopped cleanly. */
  stopped(id: string, at: string): Promise<void>;
  /** Every instance recorded (a handful: one per process started within the last hour). */
  list(): Promise<InstanceRecord[]>;
  /** Forgets the instances whose last heartbeat is older than `before` (ISO). */
  forget(before: string): Promise<void>;
  close(): Promise<void>;
}
