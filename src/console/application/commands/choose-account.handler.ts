import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountReader } from '../../../accounts/application/account-reader';
import { notFound } from '../../../shared/domain-error';
import { ConsoleSessions } from '../console-sessions.service';
import { ChooseAccount } from './choose-account.command';

@CommandHandler(ChooseAccount)
export class ChooseAccountHandler implements ICommandHandler<ChooseAccount, void> {
  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly accounts: AccountReader,
  ) {}

  async execute({ session, accountId }: ChooseAccount): Promise<void> {
    const membership = (await this.accounts.memberships(session.email)).find(
      (m) => m.accountId === accountId,
    );
    if (!membership) throw notFound('account', 'account');
    await this.sessions.chooseAccount(session, membership.accountId, membership.memberId);
  }
}
