import type { Environment } from '../domain/verification.events';

/** Who acts on verifications: one wallet (an API key's, the console's), in its environment. */
export interface VerifyCaller {
  readonly walletId: string;
  readonly accountId: string;
  readonly environment: Environment;
}

/** What a create or a resend answers: the verification, and under TEST its code. */
export interface VerificationAnswer<T> {
  readonly verification: T;
  /** TEST only: the code just sent (never under LIVE). */
  readonly testCode: string | null;
  /** True when an Idempotency-Key replayed an earlier answer. */
  readonly replayed: boolean;
}
