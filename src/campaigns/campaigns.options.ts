import { Env, envInt } from '../config/env';

/** Tunables of the campaign worker, from the environment. */
export const CAMPAIGNS_OPTIONS = Symbol('CAMPAIGNS_OPTIONS');

export interface CampaignsOptions {
  /** CAMPAIGN_POLL_MS: how often the worker looks for campaigns with messages left to write (250 ms). */
  readonly pollMs: number;
  /**
   * CAMPAIGN_LEASE_MS: a process expanding a campaign that went silent (without its heartbeat being
   * found stopped) leaves it to the others after this long (30 s); each chunk renews it.
   */
  readonly leaseMs: number;
}

export function loadCampaignsOptions(env: Env = process.env): CampaignsOptions {
  return {
    pollMs: Math.max(10, envInt(env, 'CAMPAIGN_POLL_MS', 250)),
    leaseMs: Math.max(1000, envInt(env, 'CAMPAIGN_LEASE_MS', 30_000)),
  };
}
