import { Command } from '@nestjs/cqrs';

/** The reset page's form: the link's token and the new password; every session of the login ends, in every account. */
export class CompletePasswordReset extends Command<void> {
  constructor(
    readonly token: string,
    readonly password: string,
  ) {
    super();
  }
}
