import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { AccountView } from '../../projections/accounts.projection';
import { AccountReader } from '../account-reader';
import { AccountByEmail } from './account-by-email.query';

@QueryHandler(AccountByEmail)
export class AccountByEmailHandler implements IQueryHandler<AccountByEmail, AccountView | null> {
  constructor(private readonly accounts: AccountReader) {}

  async execute({ email }: AccountByEmail): Promise<AccountView | null> {
    return this.accounts.registeredBy(email);
  }
}
