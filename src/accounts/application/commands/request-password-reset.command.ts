import { Command } from '@nestjs/cqrs';

/**
 * "Forgot password?": a one-time link to the account with this e-mail, by mail. Answers nothing,
 * whether or not there is such an account (and sends nothing past the account's hourly limit).
 */
export class RequestPasswordReset extends Command<void> {
  constructor(readonly email: string) {
    super();
  }
}
