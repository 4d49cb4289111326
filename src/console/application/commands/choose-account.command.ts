import { Command } from '@nestjs/cqrs';
import type { ConsoleSession } from '../console-sessions.service';

/** Switch the console to another account the signed-in person belongs to. */
export class ChooseAccount extends Command<void> {
  constructor(
    readonly session: ConsoleSession,
    readonly accountId: string,
  ) {
    super();
  }
}
