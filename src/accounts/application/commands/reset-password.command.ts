import { Command } from '@nestjs/cqrs';

/** Uses a reset link: sets the password and answers whose it was (the console then ends its sessions). */
export class ResetPassword extends Command<{ readonly accountId: string }> {
  constructor(
    readonly token: string,
    readonly password: string,
  ) {
    super();
  }
}
