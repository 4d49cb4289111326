import { Command } from '@nestjs/cqrs';
import type { ConsoleSession } from '../console-sessions.service';

/** End the session: its id is worthless everywhere from then on. */
export class SignOut extends Command<void> {
  constructor(readonly session: ConsoleSession) {
    super();
  }
}
