import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { createHash } from 'node:crypto';
import { CLOCK, Clock } from '../../../shared/clock';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { randomToken } from '../../../shared/ids';
import { SECRET_BOX, SecretBox } from '../../../shared/secret-box';
import { passwordResetsDecider, requestReset } from '../../domain/password-reset.decider';
import { passwordResetsStream } from '../../domain/password-reset.events';
import { AccountReader } from '../account-reader';
import { RequestPasswordReset } from './request-password-reset.command';

export const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Records the request (the mail follows from it, through the outbox): the token's hash to check
 * the link against, and the token sealed for the mail. The token is `<account id>.<secret>`, so
 * a used link finds its account without an index.
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

  async execute({ email }: RequestPasswordReset): Promise<void> {
    const owner = typeof email === 'string' ? await this.accounts.byEmail(email) : null;
    if (!owner) return;
    const account = await this.accounts.byId(owner.accountId);
    if (!account) return;
    const token = `${account.id}.${randomToken(43)}`;
    const recorded = await this.aggregates.handle(
      passwordResetsStream(account.id),
      passwordResetsDecider,
      (s) =>
        requestReset(s, {
          resetId: randomToken(16),
          accountId: account.id,
          email: account.email,
          tokenHash: tokenHash(token),
          sealedToken: this.secrets.seal(token),
          now: this.clock.now(),
        }),
    );
    if (recorded.ok && recorded.value.events.length === 0) {
      this.logger.warn(`password reset for ${account.id} not sent: the account asked too often this hour`);
    }
  }
}
