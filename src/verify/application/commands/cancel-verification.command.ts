import { Command } from '@nestjs/cqrs';
import type { Scope } from '../../domain/verification.decider';
import type { ApiVerification } from '../../domain/verification-object';

/** Cancel a pending verification: it becomes `canceled` and its code stops working. */
export class CancelVerification extends Command<ApiVerification> {
  constructor(
    readonly scope: Scope,
    readonly verificationId: string,
  ) {
    super();
  }
}
