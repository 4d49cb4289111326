import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { AccountReader } from '../../../accounts/application/account-reader';
import { LoginByCredentials } from '../../../accounts/application/queries/login-by-credentials.query';
import { normaliseEmail } from '../../../accounts/domain/email';
import { loginIdOf } from '../../../accounts/projections/accounts.projection';
import { CLOCK, Clock } from '../../../shared/clock';
import { EVENT_STORE, EventStore } from '../../../shared/event-store/event-store.port';
import { ConsoleSessions } from '../console-sessions.service';
import { SignInFailed, signInFailuresStream } from '../sign-in-failures';
import { isThrottled, SignInThrottle } from '../sign-in-throttle';
import { SignIn, SignInOutcome } from './sign-in.command';

@CommandHandler(SignIn)
export class SignInHandler implements ICommandHandler<SignIn, SignInOutcome> {
  private readonly logger = new Logger('sign-in');

  constructor(
    private readonly queries: QueryBus,
    private readonly sessions: ConsoleSessions,
    private readonly throttle: SignInThrottle,
    private readonly accounts: AccountReader,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ email, password, address, previous }: SignIn): Promise<SignInOutcome> {
    // Nothing to check, so nothing hashed and nothing remembered (the per-address bucket counted it).
    if (!email || !password) return { outcome: 'refused' };
    // Counted before the hash, so concurrent guesses cannot all pass a check made before any was counted.
    const attempt = this.throttle.begin(email, address);
    if (isThrottled(attempt)) return { outcome: 'throttled', retryAfterSeconds: attempt.retryAfterSeconds };
    const login = await this.queries.execute(new LoginByCredentials(email, password));
    if (!login) {
      // In the background: an e-mail with a login takes one append longer, and the answer's timing
      // must not tell which e-mails have one.
      void this.recordFailure(email, address).catch((error: Error) =>
        this.logger.error(`failed sign-in not recorded: ${error.message}`),
      );
      return { outcome: 'refused' };
    }
    this.throttle.succeeded(attempt);
    // Their own account first (the one the login registered), else the first they joined.
    const membership = login.memberships.find((m) => m.accountId === login.loginId) ?? login.memberships[0];
    if (!membership) return { outcome: 'no_account' };
    if (previous) await this.sessions.end(previous);
    const session = await this.sessions.start(
      {
        accountId: membership.accountId,
        memberId: membership.memberId,
        loginId: login.loginId,
        email: login.email,
      },
      address,
    );
    return { outcome: 'signed_in', session };
  }

  private async recordFailure(email: string, address: string): Promise<void> {
    const login = await this.accounts.byEmail(email);
    if (!login) return;
    const data: SignInFailed['data'] = {
      loginId: loginIdOf(login),
      email: normaliseEmail(email),
      ip: address,
      failedAt: this.clock.now().toISOString(),
    };
    await this.events.append(signInFailuresStream(data.loginId), [{ type: 'SignInFailed', data }], 'any');
  }
}
