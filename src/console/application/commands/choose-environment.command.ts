import { Command } from '@nestjs/cqrs';
import type { ConsoleEnvironment, ConsoleSession } from '../console-sessions.service';

/** Switch the console between the account's TEST and LIVE wallets. */
export class ChooseEnvironment extends Command<void> {
  constructor(
    readonly session: ConsoleSession,
    readonly environment: ConsoleEnvironment,
  ) {
    super();
  }
}
