import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConsoleSessions } from '../console-sessions.service';
import { SignOut } from './sign-out.command';

@CommandHandler(SignOut)
export class SignOutHandler implements ICommandHandler<SignOut, void> {
  constructor(private readonly sessions: ConsoleSessions) {}

  execute({ session }: SignOut): Promise<void> {
    return this.sessions.end(session);
  }
}
