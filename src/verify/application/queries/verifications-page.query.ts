import { Query } from '@nestjs/cqrs';
import type { ListPage } from '../../../shared/http/pagination';
import type { Scope } from '../../domain/verification.decider';
import type { ApiVerification } from '../../domain/verification-object';

/** A page of the wallet's verifications, newest first, after the verification `startingAfter`. */
export class VerificationsPage extends Query<ListPage<ApiVerification>> {
  constructor(
    readonly scope: Scope,
    readonly limit: number,
    readonly startingAfter?: string,
  ) {
    super();
  }
}
