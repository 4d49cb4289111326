import { Env, envInt } from '../config/env';

/** Tunables of the import job, from the environment. */
export const AUDIENCES_OPTIONS = Symbol('AUDIENCES_OPTIONS');

export interface AudiencesOptions {
  /** CONTACT_IMPORT_POLL_MS: how often the job looks for imports to run (250 ms). */
  readonly importPollMs: number;
  /**
   * CONTACT_IMPORT_LEASE_MS: a process that took an import and went silent (without its heartbeat
   * being found stopped) leaves it to the others after this long (30 s); each chunk renews it.
   */
  readonly importLeaseMs: number;
}

export function loadAudiencesOptions(env: Env = process.env): AudiencesOptions {
  return {
    importPollMs: Math.max(10, envInt(env, 'CONTACT_IMPORT_POLL_MS', 250)),
    importLeaseMs: Math.max(1000, envInt(env, 'CONTACT_IMPORT_LEASE_MS', 30_000)),
  };
}
