import { Command } from '@nestjs/cqrs';

/**
 * "Forgot password?": a one-time link to the login with this e-mail, by mail. Answers nothing,
 * whether or not there is such a login (and sends nothing past the login's hourly limit). `ip` is
 * the asking client's address, for the audit log.
 */
export class RequestPasswordReset extends Command<void> {
  constructor(
    readonly email: string,
    readonly ip: string | null = null,
  ) {
    super();
  }
}
