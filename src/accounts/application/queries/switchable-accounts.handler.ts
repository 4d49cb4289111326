import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccountReader } from '../account-reader';
import { SwitchableAccount, SwitchableAccounts } from './switchable-accounts.query';

@QueryHandler(SwitchableAccounts)
export class SwitchableAccountsHandler implements IQueryHandler<SwitchableAccounts, SwitchableAccount[]> {
  constructor(private readonly accounts: AccountReader) {}

  async execute({ email }: SwitchableAccounts): Promise<SwitchableAccount[]> {
    const memberships = await this.accounts.memberships(email);
    const owners = await Promise.all(memberships.map((m) => this.accounts.byId(m.accountId)));
    return memberships.map((m, i) => ({
      accountId: m.accountId,
      owner: owners[i]?.email ?? m.accountId,
      role: m.role,
    }));
  }
}
