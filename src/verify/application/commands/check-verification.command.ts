import { Command } from '@nestjs/cqrs';
import type { Scope } from '../../domain/verification.decider';
import type { ApiVerification } from '../../domain/verification-object';

/** Check a code: the verification as it then reads (approved, pending with a check less, failed, expired). */
export class CheckVerification extends Command<ApiVerification> {
  constructor(
    readonly scope: Scope,
    readonly verificationId: string,
    readonly code: string,
  ) {
    super();
  }
}
