import { Injectable } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { MetricsRegistry } from './metrics.registry';

/**
 * Verify (one-time codes): starts, the fraud guard's refusals by cap, checks by outcome. Labels
 * are fixed vocabularies: never a number, an id or a code.
 */
@Injectable()
export class VerifyMetrics {
  private readonly started: Counter<'environment'>;
  private readonly refusals: Counter<'environment' | 'limit'>;
  private readonly checks: Counter<'environment' | 'outcome'>;

  constructor(metrics: MetricsRegistry) {
    this.started = metrics.counter(
      'sms_verifications_started_total',
      'Verifications started (their first SMS accepted).',
      ['environment'],
    );
    this.refusals = metrics.counter(
      'sms_verification_refusals_total',
      'Verifications the fraud guard refused (429 too_many_verifications), by the cap that refused them: number, range or wallet.',
      ['environment', 'limit'],
    );
    this.checks = metrics.counter(
      'sms_verification_checks_total',
      'Checks of a code, by what they answered: approved, wrong (checks left), failed (the last check), expired.',
      ['environment', 'outcome'],
    );
  }

  startedOne(environment: string): void {
    this.started.inc({ environment });
  }

  refused(environment: string, limit: string): void {
    this.refusals.inc({ environment, limit });
  }

  checked(environment: string, outcome: 'approved' | 'wrong' | 'failed' | 'expired'): void {
    this.checks.inc({ environment, outcome });
  }
}
