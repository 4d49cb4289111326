import { Env, envInt } from '../../config/env';

export const LIVENESS_OPTIONS = Symbol('LIVENESS_OPTIONS');

export interface LivenessOptions {
  /** How often a server process records its heartbeat and looks at the others'. */
  readonly heartbeatIntervalMs: number;
  /** An instance whose heartbeat is older than this is dead, and its work is taken over. */
  readonly deadAfterMs: number;
}

export function loadLivenessOptions(env: Env = process.env): LivenessOptions {
  const heartbeatIntervalMs = Math.max(50, envInt(env, 'HEARTBEAT_INTERVAL_MS', 1000));
  // Dead only after at least two missed heartbeats: one late write must not look like a death.
  const deadAfterMs = Math.max(2 * heartbeatIntervalMs, envInt(env, 'INSTANCE_DEAD_AFTER_MS', 5000));
  return { heartbeatIntervalMs, deadAfterMs };
}
