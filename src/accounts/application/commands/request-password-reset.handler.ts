import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { createHash } from 'node:crypto';
import { CLOCK, Clock } from '../../../shared/clock';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { randomToken } from '../../../shared/ids';
import { SECRET_BOX, SecretBox } from '../../../shared/secret-box';
import { passwordResetsDecider, requestReset } from '../../domain/password-reset.decider';
import { passwordResetsStream } from '../../domain/password-reset.events';
import { loginIdOf } from '../../projections/accounts.projection';
import { AccountReader, normaliseEmail } from '../account-reader';
import { RequestPasswordReset } from './request-password-reset.command';

export const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Records the request (the mail follows from it, through the outbox): the token's hash to check
 * the link against, and the token sealed for the mail. The token is `<login id>.<secret>`, so
 * a used link finds its login without an index.
 */
@CommandHandler(RequestPasswordReset)
export class RequestPasswordResetHandler implements ICommandHandler<RequestPasswordReset, void> {
  private readonly logger = new Logger('password-reset');

  constructor(
    private readonly accounts: AccountReader,
    private readonly aggregates: AggregateStore,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ email, ip }: RequestPasswordReset): Promise<void> {
    const login = typeof email === 'string' ? await this.accounts.byEmail(email) : null;
    if (!login) return;
    const loginId = loginIdOf(login);
    const token = `${loginId}.${randomToken(43)}`;
    const recorded = await this.aggregates.handle(passwordResetsStream(loginId), passwordResetsDecider, (s) =>
      requestReset(s, {
        resetId: randomToken(16),
        accountId: login.accountId,
        loginId,
        // The login's own e-mail: the account's (its owner's) may be someone else's since a hand-over.
        email: normaliseEmail(email),
        ip,
        tokenHash: tokenHash(token),
        sealedToken: this.secrets.seal(token),
        now: this.clock.now(),
      }),
    );
    if (recorded.ok && recorded.value.events.length === 0) {
      this.logger.warn(`password reset for ${loginId} not sent: the login asked too often this hour`);
    }
  }
}
