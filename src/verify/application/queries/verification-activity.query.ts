import { Query } from '@nestjs/cqrs';
import type { Scope, VerificationStatus } from '../../domain/verification.decider';
import type { GuardLimit } from '../../domain/verification-guard.decider';

export interface VerificationRow {
  readonly id: string;
  readonly to: string;
  readonly status: VerificationStatus;
  readonly checksUsed: number;
  readonly maxChecks: number;
  readonly sends: number;
  readonly createdAt: string;
  /** From start to approval, in whole seconds; null unless approved. */
  readonly secondsToApprove: number | null;
  readonly credits: number;
}

export interface VerificationDayRow {
  readonly day: string;
  readonly started: number;
  readonly approved: number;
  /** approved out of started, 0–1; null for a day with none started. */
  readonly conversion: number | null;
  readonly refused: number;
  readonly credits: number;
}

export interface VerificationRefusalRow {
  readonly to: string;
  readonly limit: GuardLimit;
  readonly retryAfterSeconds: number;
  readonly at: string;
}

export interface VerificationActivityView {
  readonly recent: readonly VerificationRow[];
  readonly days: readonly VerificationDayRow[];
  readonly refusals: readonly VerificationRefusalRow[];
}

/** The console's Verifications page: recent verifications, the last days, the guard's refusals. */
export class VerificationActivity extends Query<VerificationActivityView> {
  constructor(
    readonly scope: Scope,
    readonly recent = 20,
    readonly days = 14,
  ) {
    super();
  }
}
