import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AcceptInvitation } from '../../../accounts/application/commands/accept-invitation.command';
import { ConsoleSession, ConsoleSessions } from '../console-sessions.service';
import { JoinAccount } from './join-account.command';

@CommandHandler(JoinAccount)
export class JoinAccountHandler implements ICommandHandler<JoinAccount, ConsoleSession> {
  constructor(
    private readonly commands: CommandBus,
    private readonly sessions: ConsoleSessions,
  ) {}

  async execute({ token, password, address, previous }: JoinAccount): Promise<ConsoleSession> {
    const joined = await this.commands.execute(new AcceptInvitation(token, password, address));
    if (previous) await this.sessions.end(previous);
    return this.sessions.start(joined, address);
  }
}
