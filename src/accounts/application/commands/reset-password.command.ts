import { Command } from '@nestjs/cqrs';

/** Uses a reset link: sets the password and answers whose login it was (the console then ends its sessions). */
export class ResetPassword extends Command<{ readonly loginId: string }> {
  constructor(
    readonly token: string,
    readonly password: string,
  ) {
    super();
  }
}
