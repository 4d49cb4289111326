import { CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { AccountByCredentials } from '../../../accounts/application/queries/account-by-credentials.query';
import { ConsoleSessions } from '../console-sessions.service';
import { isThrottled, SignInThrottle } from '../sign-in-throttle';
import { SignIn, SignInOutcome } from './sign-in.command';

@CommandHandler(SignIn)
export class SignInHandler implements ICommandHandler<SignIn, SignInOutcome> {
  constructor(
    private readonly queries: QueryBus,
    private readonly sessions: ConsoleSessions,
    private readonly throttle: SignInThrottle,
  ) {}

  async execute({ email, password, address, previous }: SignIn): Promise<SignInOutcome> {
    // Nothing to check, so nothing hashed and nothing remembered (the per-address bucket counted it).
    if (!email || !password) return { outcome: 'refused' };
    // Counted before the hash, so concurrent guesses cannot all pass a check made before any was counted.
    const attempt = this.throttle.begin(email, address);
    if (isThrottled(attempt)) return { outcome: 'throttled', retryAfterSeconds: attempt.retryAfterSeconds };
    const account = await this.queries.execute(new AccountByCredentials(email, password));
    if (!account) return { outcome: 'refused' };
    this.throttle.succeeded(attempt);
    if (previous) await this.sessions.end(previous);
    return { outcome: 'signed_in', session: await this.sessions.start(account.id) };
  }
}
