import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConsoleSessions } from '../console-sessions.service';
import { ChooseEnvironment } from './choose-environment.command';

@CommandHandler(ChooseEnvironment)
export class ChooseEnvironmentHandler implements ICommandHandler<ChooseEnvironment, void> {
  constructor(private readonly sessions: ConsoleSessions) {}

  execute({ session, environment }: ChooseEnvironment): Promise<void> {
    return this.sessions.chooseEnvironment(session, environment);
  }
}
