import { Command } from '@nestjs/cqrs';
import type { ConsoleSession } from '../console-sessions.service';

/**
 * The invitation page's form: accepts the invitation (accounts' AcceptInvitation) and signs the
 * person in to the account they joined, ending the visitor's previous session (if any).
 */
export class JoinAccount extends Command<ConsoleSession> {
  constructor(
    readonly token: string,
    readonly password: string,
    readonly address: string | null,
    readonly previous: ConsoleSession | null,
  ) {
    super();
  }
}
