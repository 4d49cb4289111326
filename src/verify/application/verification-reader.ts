import { Inject, Injectable } from '@nestjs/common';
import { isIdOf } from '../../shared/ids';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import type { Scope } from '../domain/verification.decider';
import {
  VERIFICATION_DAYS,
  VERIFICATION_REFUSALS,
  VerificationDayDoc,
  VerificationDoc,
  VerificationRefusalDoc,
  VERIFICATIONS,
} from '../projections/verifications.projection';

/** The verifications read model as the queries read it; another wallet's is answered as unknown. */
@Injectable()
export class VerificationReader {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async find(id: unknown, scope: Scope): Promise<VerificationDoc | null> {
    if (!isIdOf('ver', id)) return null;
    const doc = await this.reads.get<VerificationDoc>(VERIFICATIONS, id);
    return doc && doc.walletId === scope.walletId && doc.environment === scope.environment ? doc : null;
  }

  /** Newest first, after the document sorted at `afterSort`. */
  list(walletId: string, limit: number, afterSort?: string): Promise<VerificationDoc[]> {
    return this.reads.list<VerificationDoc>(VERIFICATIONS, {
      partition: walletId,
      order: 'desc',
      limit,
      afterSort,
    });
  }

  /** The wallet's last `days` days with any verification activity, newest first. */
  days(walletId: string, days: number): Promise<VerificationDayDoc[]> {
    return this.reads.list<VerificationDayDoc>(VERIFICATION_DAYS, {
      partition: walletId,
      order: 'desc',
      limit: days,
    });
  }

  refusals(walletId: string, limit: number): Promise<VerificationRefusalDoc[]> {
    return this.reads.list<VerificationRefusalDoc>(VERIFICATION_REFUSALS, {
      partition: walletId,
      order: 'desc',
      limit,
    });
  }
}
