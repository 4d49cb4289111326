import { Query } from '@nestjs/cqrs';
import type { Scope } from '../../domain/verification.decider';
import type { ApiVerification } from '../../domain/verification-object';

/** One verification as it reads now (from its stream and the clock). */
export class VerificationById extends Query<ApiVerification> {
  constructor(
    readonly scope: Scope,
    readonly verificationId: string,
  ) {
    super();
  }
}
