import { Command } from '@nestjs/cqrs';
import type { ConsoleSession } from '../console-sessions.service';

/** Sign up from the console and start a session for the new account (ending any previous one). */
export class SignUp extends Command<ConsoleSession> {
  constructor(
    readonly email: string,
    readonly password: string,
    readonly previous: ConsoleSession | null,
    /** The client's address, recorded with the sign-in. */
    readonly address: string | null = null,
  ) {
    super();
  }
}
