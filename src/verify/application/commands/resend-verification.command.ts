import { Command } from '@nestjs/cqrs';
import type { ApiVerification } from '../../domain/verification-object';
import type { VerificationAnswer, VerifyCaller } from '../verification-caller';

/** A new code by a new SMS; the previous code stops working and the expiry starts again. */
export class ResendVerification extends Command<VerificationAnswer<ApiVerification>> {
  constructor(
    readonly caller: VerifyCaller,
    readonly verificationId: string,
  ) {
    super();
  }
}
