import { Env, envInt } from '../../config/env';

export const LIVENESS_OPTIONS = Symbol('LIVENESS_OPTIONS');

export interface LivenessOptions {
  /** How often a server process records its heartbeat and looks at the others'. */
  readonly heartbeatIntervalMs: number;
  /** An instance whose heartbeat is older than this is dead, and its work is taken over. */
  readonly deadAfterMs: number;
}

/** An instance is dead after 8 s of silence, unless INSTANCE_DEAD_AFTER_MS says otherwise. */
const DEAD_AFTER_MS = 8000;
/**
 * Heartbeats come four to a dead-after period: a process calls itself stale (no new submission)
 * at half of it, so one late beat is still tolerated, and the others wait out at least three
 * missed ones before taking its work. Each beat is a write to read.db (and a WAL checkpoint after
 * it), which an idle server paid every second at the old 1 s.
 */
const BEATS_PER_DEAD_AFTER = 4;

export function loadLivenessOptions(env: Env = process.env): LivenessOptions {
  const given = envInt(env, 'INSTANCE_DEAD_AFTER_MS', DEAD_AFTER_MS);
  const heartbeatIntervalMs = Math.max(
    50,
    envInt(env, 'HEARTBEAT_INTERVAL_MS', Math.floor(given / BEATS_PER_DEAD_AFTER)),
  );
  // Dead only after at least two missed heartbeats: one late write must not look like a death.
  const deadAfterMs = Math.max(2 * heartbeatIntervalMs, given);
  return { heartbeatIntervalMs, deadAfterMs };
}
