/**
 * Tunables of the messaging process managers. Read from the environment (with API.md/DESIGN.md
 * defaults); a test can swap the whole provider with overrideProvider(MESSAGING_OPTIONS).
 */
export const MESSAGING_OPTIONS = Symbol('MESSAGING_OPTIONS');

export interface MessagingOptions {
  /** How long a dispatcher's claim holds before another process may take the message over. */
  readonly claimLeaseMs: number;
  /** How often the dispatcher looks at the durable "to dispatch" read model (hints wake it sooner). */
  readonly dispatchPollMs: number;
  /** Most submissions one process runs at once. */
  readonly dispatchConcurrency: number;
  /** How often messages past their validity are expired. */
  readonly expirySweepMs: number;
  /** A reservation without a message older than this is an orphan (a send that crashed between reserve and queue). */
  readonly orphanGraceMs: number;
  readonly orphanSweepMs: number;
  /** How often SENT TEST messages without an outcome are handed to the simulator again. */
  readonly testReconcileMs: number;
  /** How long a receipt for an unknown carrier id waits for its MessageSent before it is dropped. */
  readonly receiptMatchGraceMs: number;
  /** How long a request with an in-flight Idempotency-Key waits for the first one before 409. */
  readonly idempotencyWaitMs: number;
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

export function loadMessagingOptions(env: Env = process.env): MessagingOptions {
  return {
    claimLeaseMs: int(env, 'DISPATCH_CLAIM_LEASE_MS', 30_000),
    dispatchPollMs: int(env, 'DISPATCH_POLL_MS', 1000),
    dispatchConcurrency: Math.max(1, int(env, 'DISPATCH_CONCURRENCY', 64)),
    expirySweepMs: int(env, 'EXPIRY_SWEEP_MS', 2000),
    orphanGraceMs: int(env, 'ORPHAN_RESERVATION_GRACE_MS', 2 * 60 * 1000),
    orphanSweepMs: int(env, 'ORPHAN_SWEEP_MS', 30_000),
    testReconcileMs: int(env, 'TEST_CARRIER_RECONCILE_MS', 5000),
    idempotencyWaitMs: int(env, 'IDEMPOTENCY_WAIT_MS', 5000),
    receiptMatchGraceMs: int(env, 'RECEIPT_MATCH_GRACE_MS', 10_000),
  };
}
