import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { RegisterAccount } from '../../../accounts/application/commands/register-account.command';
import { memberIdFor } from '../../../accounts/domain/member-id';
import { ConsoleSession, ConsoleSessions } from '../console-sessions.service';
import { SignUp } from './sign-up.command';

/** The accounts context registers the account; the console only adds its session. */
@CommandHandler(SignUp)
export class SignUpHandler implements ICommandHandler<SignUp, ConsoleSession> {
  constructor(
    private readonly commands: CommandBus,
    private readonly sessions: ConsoleSessions,
  ) {}

  async execute({ email, password, address, previous }: SignUp): Promise<ConsoleSession> {
    const account = await this.commands.execute(new RegisterAccount(email, password));
    if (previous) await this.sessions.end(previous);
    // The account's first user is its owner, whose login is the account's own.
    return this.sessions.start(
      {
        accountId: account.id,
        memberId: memberIdFor(account.id, account.email),
        loginId: account.id,
        email: account.email,
      },
      address,
    );
  }
}
