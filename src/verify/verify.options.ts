import { Env, envInt } from '../config/env';
import type { GuardLimits } from './domain/verification-guard.decider';

/**
 * Tunables of Verify, from the environment with API.md's defaults; a test can swap the whole
 * provider with overrideProvider(VERIFY_OPTIONS).
 */
export const VERIFY_OPTIONS = Symbol('VERIFY_OPTIONS');

export interface VerifyOptions {
  /** The fraud guard's caps per wallet per hour (0: no cap). */
  readonly limits: GuardLimits;
  /**
   * VERIFY_SECRET: the key codes are hashed with (HMAC-SHA256), at least 32 characters, the same
   * on every process of a deployment. Unset, a key derived from the SecretBox's is used.
   */
  readonly secret: string | null;
  /** How often the expiry process looks for pending verifications past their expiry. */
  readonly expirySweepMs: number;
}

export function loadVerifyOptions(env: Env = process.env): VerifyOptions {
  const secret = env.VERIFY_SECRET || null;
  if (secret !== null && secret.length < 32)
    throw new Error('VERIFY_SECRET must be at least 32 characters (say, 64 random hexadecimal ones)');
  return {
    limits: {
      perNumber: envInt(env, 'VERIFY_LIMIT_PER_NUMBER_PER_HOUR', 5),
      perRange: envInt(env, 'VERIFY_LIMIT_PER_RANGE_PER_HOUR', 20),
      perWallet: envInt(env, 'VERIFY_LIMIT_PER_WALLET_PER_HOUR', 1000),
    },
    secret,
    expirySweepMs: Math.max(50, envInt(env, 'VERIFY_EXPIRY_SWEEP_MS', 1000)),
  };
}
