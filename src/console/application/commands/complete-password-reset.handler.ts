import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ResetPassword } from '../../../accounts/application/commands/reset-password.command';
import { ConsoleSessions } from '../console-sessions.service';
import { CompletePasswordReset } from './complete-password-reset.command';

@CommandHandler(CompletePasswordReset)
export class CompletePasswordResetHandler implements ICommandHandler<CompletePasswordReset, void> {
  constructor(
    private readonly commands: CommandBus,
    private readonly sessions: ConsoleSessions,
  ) {}

  async execute({ token, password }: CompletePasswordReset): Promise<void> {
    const { loginId } = await this.commands.execute(new ResetPassword(token, password));
    await this.sessions.endAllOf(loginId, 'password_reset');
  }
}
