import type { RetryPolicy } from './domain/delivery-policy';

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
  /** Deliveries in flight at once to one endpoint, and in all. */
  readonly perEndpointConcurrency: number;
  readonly totalConcurrency: number;
  /** Most enabled endpoints one wallet may have. */
  readonly maxEndpointsPerWallet: number;
}

type Env = Readonly<Record<string, string | undefined>>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

export function loadWebhookOptions(env: Env = process.env): WebhookOptions {
  return {
    retry: {
      baseMs: int(env, 'WEBHOOK_RETRY_BASE_MS', 10_000),
      maxMs: int(env, 'WEBHOOK_RETRY_MAX_MS', 60 * 60 * 1000),
      windowMs: int(env, 'WEBHOOK_RETRY_WINDOW_MS', 24 * 60 * 60 * 1000),
    },
    timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000),
    pollMs: Math.max(10, int(env, 'WEBHOOK_POLL_MS', 250)),
    perEndpointConcurrency: Math.max(1, int(env, 'WEBHOOK_ENDPOINT_CONCURRENCY', 4)),
    totalConcurrency: Math.max(1, int(env, 'WEBHOOK_CONCURRENCY', 64)),
    maxEndpointsPerWallet: Math.max(1, int(env, 'WEBHOOK_MAX_ENDPOINTS', 16)),
  };
}
