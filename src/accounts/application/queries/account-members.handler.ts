import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { AccountReader } from '../account-reader';
import { AccountMembers, AccountMembersView } from './account-members.query';

@QueryHandler(AccountMembers)
export class AccountMembersHandler implements IQueryHandler<AccountMembers, AccountMembersView> {
  constructor(
    private readonly accounts: AccountReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId }: AccountMembers): Promise<AccountMembersView> {
    const now = this.clock.now().toISOString();
    const [members, invitations] = await Promise.all([
      this.accounts.members(accountId),
      this.accounts.invitations(accountId),
    ]);
    return { members, invitations: invitations.filter((i) => i.status === 'pending' && i.expires_at > now) };
  }
}
