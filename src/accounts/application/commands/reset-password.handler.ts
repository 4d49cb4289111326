import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import { ok } from '../../../shared/result';
import { accountDecider } from '../../domain/account.decider';
import { accountStream, type AccountEvent } from '../../domain/account.events';
import { hashPassword, passwordRefusal } from '../../domain/password';
import { completeReset, linkNotValid, passwordResetsDecider } from '../../domain/password-reset.decider';
import { passwordResetsStream } from '../../domain/password-reset.events';
import { tokenHash } from './request-password-reset.handler';
import { ResetPassword } from './reset-password.command';

const TOKEN_SHAPE = /^(acct_[0-9A-Za-z]{1,40})\.[0-9A-Za-z]{43}$/;

/**
 * The link is spent first (at its stream's revision: two uses cannot both pass), then the new
 * password's hash is recorded; the sign-in read model has it before the answer.
 */
@CommandHandler(ResetPassword)
export class ResetPasswordHandler implements ICommandHandler<ResetPassword, { accountId: string }> {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly projections: ProjectionsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ token, password }: ResetPassword): Promise<{ accountId: string }> {
    const shape = typeof token === 'string' ? TOKEN_SHAPE.exec(token) : null;
    if (!shape) throw linkNotValid();
    const refusal = passwordRefusal(password);
    if (refusal) throw refusal;
    const accountId = shape[1];
    const passwordHash = await hashPassword(password);
    const spent = await this.aggregates.handle(passwordResetsStream(accountId), passwordResetsDecider, (s) =>
      completeReset(s, { tokenHash: tokenHash(token), now: this.clock.now() }),
    );
    if (!spent.ok) throw spent.error;
    const changed = await this.aggregates.handle(accountStream(accountId), accountDecider, () =>
      ok<AccountEvent[]>([
        { type: 'PasswordChanged', data: { passwordHash, changedAt: this.clock.now().toISOString() } },
      ]),
    );
    if (!changed.ok) throw changed.error;
    await this.projections.waitFor(changed.value.position, ['accounts']);
    return { accountId };
  }
}
