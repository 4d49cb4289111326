import { CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { AccountByCredentials } from '../../../accounts/application/queries/account-by-credentials.query';
import { ConsoleSessions } from '../console-sessions.service';
import { SignInThrottle } from '../sign-in-throttle';
import { SignIn, SignInOutcome } from './sign-in.command';

@CommandHandler(SignIn)
export class SignInHandler implements ICommandHandler<SignIn, SignInOutcome> {
  constructor(
    private readonly queries: QueryBus,
    private readonly sessions: ConsoleSessions,
    private readonly throttle: SignInThrottle,
  ) {}

  async execute({ email, password, address, previous }: SignIn): Promise<SignInOutcome> {
    const retryAfterSeconds = this.throttle.retryAfterSeconds(email, address);
    if (retryAfterSeconds > 0) return { outcome: 'throttled', retryAfterSeconds };
    const account =
      email && password ? await this.queries.execute(new AccountByCredentials(email, password)) : null;
    if (!account) {
      this.throttle.recordFailure(email, address);
      return { outcome: 'refused' };
    }
    this.throttle.recordSuccess(email, address);
    if (previous) await this.sessions.end(previous);
    return { outcome: 'signed_in', session: await this.sessions.start(account.id) };
  }
}
