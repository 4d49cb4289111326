import { Command } from '@nestjs/cqrs';
import type { VerificationInput } from '../../domain/verification-input';
import type { ApiVerification } from '../../domain/verification-object';
import type { VerificationAnswer, VerifyCaller } from '../verification-caller';

/**
 * Start a verification: a code to `to` by SMS, through messaging's one send path (API, console
 * try-out alike), past the fraud guard. With an Idempotency-Key, one verification per key.
 */
export class StartVerification extends Command<VerificationAnswer<ApiVerification>> {
  constructor(
    readonly caller: VerifyCaller,
    readonly input: VerificationInput,
    readonly idempotencyKey: string | null = null,
  ) {
    super();
  }
}
