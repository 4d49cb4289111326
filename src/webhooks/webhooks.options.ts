import type { RetryPolicy } from '../shared/retry-policy';
import { Env, envInt } from '../config/env';

/**
 * Tunables of webhook delivery, from the environment with API.md's defaults; a test can swap
 * the whole provider with overrideProvider(WEBHOOK_OPTIONS).
 */
export const WEBHOOK_OPTIONS = Symbol('WEBHOOK_OPTIONS');

export interface WebhookOptions {
  readonly retry: RetryPolicy;
  /** A receiver must answer within this long (API.md: 10 s). */
  readonly timeoutMs: number;
  /** How often the worker looks at the outbox. */
  readonly pollMs: number;
  /** Deliveries in flight at once to one endpoint, to one wallet's endpoints, and in all. */
  readonly perEndpointConcurrency: number;
  readonly perWalletConcurrency: number;
  readonly totalConcurrency: number;
  /** Most enabled endpoints one wallet may have. */
  readonly maxEndpointsPerWallet: number;
}

export function loadWebhookOptions(env: Env = process.env): WebhookOptions {
  return {
    retry: {
      baseMs: envInt(env, 'WEBHOOK_RETRY_BASE_MS', 10_000),
      maxMs: envInt(env, 'WEBHOOK_RETRY_MAX_MS', 60 * 60 * 1000),
      windowMs: envInt(env, 'WEBHOOK_RETRY_WINDOW_MS', 24 * 60 * 60 * 1000),
    },
    timeoutMs: envInt(env, 'WEBHOOK_TIMEOUT_MS', 10_000),
    pollMs: Math.max(10, envInt(env, 'WEBHOOK_POLL_MS', 250)),
    perEndpointConcurrency: Math.max(1, envInt(env, 'WEBHOOK_ENDPOINT_CONCURRENCY', 4)),
    perWalletConcurrency: Math.max(1, envInt(env, 'WEBHOOK_WALLET_CONCURRENCY', 16)),
    totalConcurrency: Math.max(1, envInt(env, 'WEBHOOK_CONCURRENCY', 64)),
    maxEndpointsPerWallet: Math.max(1, envInt(env, 'WEBHOOK_MAX_ENDPOINTS', 16)),
  };
}
