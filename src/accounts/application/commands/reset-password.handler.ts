import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import { EVENT_STORE, EventStore } from '../../../shared/event-store/event-store.port';
import { isIdOf } from '../../../shared/ids';
import { ok } from '../../../shared/result';
import { accountDecider } from '../../domain/account.decider';
import {
  accountStream,
  emailStream,
  type AccountEvent,
  type PasswordChanged,
} from '../../domain/account.events';
import { hashPassword, passwordRefusal } from '../../domain/password';
import { completeReset, linkNotValid, passwordResetsDecider } from '../../domain/password-reset.decider';
import { passwordResetsStream } from '../../domain/password-reset.events';
import { tokenHash } from './request-password-reset.handler';
import { emailHash } from './register-account.handler';
import { ResetPassword } from './reset-password.command';

const TOKEN_SHAPE = /^((?:acct|usr)_[0-9A-Za-z]{1,40})\.[0-9A-Za-z]{43}$/;

/**
 * The link is spent first (at its stream's revision: two uses cannot both pass), then the new
 * password's hash is recorded where the login keeps it (the registered account's stream, or the
 * e-mail's for a login made by an invitation); the sign-in read model has it before the answer.
 */
@CommandHandler(ResetPassword)
export class ResetPasswordHandler implements ICommandHandler<ResetPassword, { loginId: string }> {
  constructor(
    private readonly aggregates: AggregateStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly projections: ProjectionsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ token, password }: ResetPassword): Promise<{ loginId: string }> {
    const shape = typeof token === 'string' ? TOKEN_SHAPE.exec(token) : null;
    if (!shape) throw linkNotValid();
    const refusal = passwordRefusal(password);
    if (refusal) throw refusal;
    const loginId = shape[1];
    const passwordHash = await hashPassword(password);
    const spent = await this.aggregates.handle(passwordResetsStream(loginId), passwordResetsDecider, (s) =>
      completeReset(s, { tokenHash: tokenHash(token), now: this.clock.now() }),
    );
    if (!spent.ok) throw spent.error;
    const request = spent.value.state.requests.find((r) => r.tokenHash === tokenHash(token))!;
    const changedData = { passwordHash, changedAt: this.clock.now().toISOString(), email: request.email };
    const position = isIdOf('acct', loginId)
      ? await this.onAccount(loginId, changedData)
      : (
          await this.events.append(
            emailStream(emailHash(request.email)),
            [{ type: 'PasswordChanged', data: changedData }],
            'stream_exists',
          )
        ).position;
    await this.projections.waitFor(position, ['accounts']);
    return { loginId };
  }

  private async onAccount(accountId: string, data: PasswordChanged['data']): Promise<bigint | null> {
    const changed = await this.aggregates.handle(accountStream(accountId), accountDecider, () =>
      ok<AccountEvent[]>([{ type: 'PasswordChanged', data }]),
    );
    if (!changed.ok) throw changed.error;
    return changed.value.position;
  }
}
