import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { createHash } from 'node:crypto';
import { CLOCK, Clock } from '../../../shared/clock';
import { DomainError, invalid } from '../../../shared/domain-error';
import { ConcurrencyError, EVENT_STORE, EventStore } from '../../../shared/event-store/event-store.port';
import { newId } from '../../../shared/ids';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import { emailStream, Registration } from '../../domain/account.events';
import { isEmailAddress } from '../../domain/email';
import { hashPassword, passwordRefusal } from '../../domain/password';
import type { AccountView } from '../../projections/accounts.projection';
import { AccountProvisioning } from '../account-provisioning.service';
import { AccountReader, normaliseEmail } from '../account-reader';
import { RegisterAccount } from './register-account.command';

export const emailHash = (email: string) => createHash('sha256').update(normaliseEmail(email)).digest('hex');

/** Claims the email (an append at no_stream: exactly one sign-up wins), then provisions the account. */
@CommandHandler(RegisterAccount)
export class RegisterAccountHandler implements ICommandHandler<RegisterAccount, AccountView> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly provisioning: AccountProvisioning,
    private readonly accounts: AccountReader,
    private readonly projections: ProjectionsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ email, password }: RegisterAccount): Promise<AccountView> {
    if (!isEmailAddress(email)) {
      throw invalid('invalid_email', 'email must be an email address', 'email');
    }
    const refusal = passwordRefusal(password);
    if (refusal) throw refusal;
    const registration: Registration = {
      accountId: newId('acct'),
      email: normaliseEmail(email),
      passwordHash: await hashPassword(password),
      testWalletId: newId('wal'),
      liveWalletId: newId('wal'),
    };
    try {
      await this.events.append(
        emailStream(emailHash(email)),
        [{ type: 'EmailClaimed', data: { ...registration, claimedAt: this.clock.now().toISOString() } }],
        'no_stream',
      );
    } catch (error) {
      if (error instanceof ConcurrencyError) {
        throw new DomainError(
          'conflict',
          'email_taken',
          'An account with this email already exists',
          'email',
        );
      }
      throw error;
    }
    await this.provisioning.provision(registration);
    await this.projections.catchUp();
    return (await this.accounts.byId(registration.accountId))!;
  }
}
