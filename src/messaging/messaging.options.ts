import { Env, envInt } from '../config/env';

/**
 * Tunables of the messaging process managers. Read from the environment (with API.md/DESIGN.md
 * defaults); a test can swap the whole provider with overrideProvider(MESSAGING_OPTIONS).
 */
export const MESSAGING_OPTIONS = Symbol('MESSAGING_OPTIONS');

export interface MessagingOptions {
  /** Messages fall into this many dispatch partitions; a process submits those of partitions it leases. */
  readonly dispatchPartitions: number;
  /** How long a dispatcher's lease on its partitions holds: a process that died is taken over after this. */
  readonly dispatchLeaseMs: number;
  /** How often a dispatcher renews its leases (and takes or hands over partitions). */
  readonly dispatchLeaseRenewMs: number;
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

export function loadMessagingOptions(env: Env = process.env): MessagingOptions {
  // A lease is renewed three times a lifetime. Each renewal is an event in the log, and its
  // length only bounds the wait for an instance no heartbeat shows dead (one found dead by its
  // heartbeat gives its partitions up at once): 30 s, renewed every 10 s.
  const dispatchLeaseMs = Math.max(1000, envInt(env, 'DISPATCH_LEASE_MS', 30_000));
  return {
    dispatchPartitions: Math.max(1, envInt(env, 'DISPATCH_PARTITIONS', 8)),
    dispatchLeaseMs,
    dispatchLeaseRenewMs: Math.max(
      100,
      envInt(env, 'DISPATCH_LEASE_RENEW_MS', Math.floor(dispatchLeaseMs / 3)),
    ),
    dispatchPollMs: envInt(env, 'DISPATCH_POLL_MS', 1000),
    dispatchConcurrency: Math.max(1, envInt(env, 'DISPATCH_CONCURRENCY', 64)),
    expirySweepMs: envInt(env, 'EXPIRY_SWEEP_MS', 2000),
    orphanGraceMs: envInt(env, 'ORPHAN_RESERVATION_GRACE_MS', 2 * 60 * 1000),
    orphanSweepMs: envInt(env, 'ORPHAN_SWEEP_MS', 30_000),
    testReconcileMs: envInt(env, 'TEST_CARRIER_RECONCILE_MS', 5000),
    idempotencyWaitMs: envInt(env, 'IDEMPOTENCY_WAIT_MS', 5000),
    receiptMatchGraceMs: envInt(env, 'RECEIPT_MATCH_GRACE_MS', 10_000),
  };
}
