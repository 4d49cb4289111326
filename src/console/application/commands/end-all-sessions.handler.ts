import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConsoleSessions } from '../console-sessions.service';
import { EndAllSessions } from './end-all-sessions.command';

@CommandHandler(EndAllSessions)
export class EndAllSessionsHandler implements ICommandHandler<EndAllSessions, { endedBefore: string }> {
  constructor(private readonly sessions: ConsoleSessions) {}

  execute(): Promise<{ endedBefore: string }> {
    return this.sessions.endAll();
  }
}
